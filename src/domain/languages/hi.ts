/** @module Hindi: what the service needs to answer in it (an entry of the language table). */
import { stemmer } from "@orama/stemmers/indian";
import type { LanguageFacts } from "./language-facts.ts";

export const HINDI: LanguageFacts = {
  name: "Hindi",
  script: "devanagari",
  stopWords: "है हैं था थे थी का की के को में से पर और या यह वह ये वे कि जो तो भी ने एक इस उस कर क्या कैसे कब " +
    "कहाँ क्यों नहीं हो",
  stem: stemmer,
  genericWords: "कहता कहती कहा बोलता बोलती सोचता सोचती बताता बताती वीडियो",
  wholeVideoPhrases: [
    // Hinglish included: the Latin-letter spellings most people type come after the Devanagari phrases.
    String.raw`सारांश\p{L}*|सार|संक्षेप|संक्षिप्त|निचोड|समरी|समराइज`,
    // Not "किस चीज से बना" ("made of what"): a detail; the plural "किन चीजों" below asks for the whole.
    String.raw`(?:किस|किन|किसके) (?:बारे|विषय|विषयों)`,
    String.raw`(?:मुख्य|प्रमुख|खास|जरूरी|अहम|महत्वपूर्ण|मूल|केंद्रीय|मेन|बडी|इंपोर्टेंट)` +
    String.raw` (?:बातें|बातों|बात|बिंदु|बिंदुओं|पॉइंट्स|पॉइंट|पाइंट्स|विचार|संदेश` +
    String.raw`|मुद्दे|मुद्दों|निष्कर्ष|सीख|तर्क|विषय)`,
    String.raw`की (?:पॉइंट्स|टेकअवे)|निष्कर्ष|सीख (?:मिलती|मिलेगी|मिली|मिल)|क्या सीखें|सबक`,
    String.raw`अध्याय|चैप्टर|टाइमस्टैम्प|टाइम स्टैम्प|टाइमस्टांप|(?:हिस्सों|भागों|खंडों) (?:में|मे) (?:बांट|बाट)\p{M}*`,
    String.raw`रूपरेखा|ढांचा|संरचना|सूची|लिस्ट|कौन कौन|किन किन|क्या क्या|क्रम (?:से|में|मे)|क्रमवार|एक एक करके`,
    String.raw`चरण दर चरण|स्टेप बाय स्टेप|कितनी बार|जितने भी|जितनी भी|पूरी बात`,
    String.raw`(?:में|मे) क्या (?:बताया|कहा|समझाया|दिखाया|सिखाया) (?:गया )?(?:है|हैं)$`,
    String.raw`(?:किन|किस|कौन सी) (?:बातों|विषयों|मुद्दों|चीजों) (?:पर|के बारे)|चर्चा (?:हुई|की गई|हुई है)$`,
    String.raw`(?:सभी|सारे|सारी|सब)(?: [\p{L}\p{M}\p{N}]+){0,6} (?:बताओ|बताइए|बताइये|बताएं|बता|गिनाओ|गिनाइए|लिखो` +
    String.raw`|लिखिए|दो|दीजिए|दें)`,
    String.raw`(?:पूरे|पूरा|पूरी) वीडियो|शुरू से (?:अंत|आखिर)|फायदे और नुकसान|खूबियां और कमियां|कुल मिलाकर`,
    String.raw`देखने का (?:समय|टाइम) नहीं|क्या (?:बता|कह|समझा|सिखा|दिखा) (?:रहा|रही|रहे) (?:है|हैं|हो)$`,
    String.raw`^(?:(?:इस |ये |यह )?वीडियो (?:को |के बारे में )?)?(?:समझाओ|समझाइए|समझाइये|बताओ|बताइए|बताइये)` +
    String.raw`(?: (?:ना|प्लीज|जरा))*$`,
    String.raw`saar|saransh|sankshep|(?:kis|kiske) (?:baare|bare) (?:mein|me|mai|main|mei)`,
    String.raw`(?:main|key|important|imp|mukhya|zaroori|jaruri|zaruri|khaas|khas)` +
    String.raw` (?:points?|baatein|baaten|baate|baat|bindu)`,
    String.raw`(?:saare|sare|saari|sari|sabhi|sab)(?: [\p{L}\p{N}]+){0,6} (?:batao|bataiye|bata|likho|do|dijiye|gino)`,
    String.raw`kaun kaun|kon kon|kin kin|kya kya|(?:order|kram) (?:mein|me|mai|se)|short (?:mein|me|mai)`,
    String.raw`(?:pura|poora|pure|poore|puri|poori) video|video (?:me|mein) kya (?:bataya|kaha|samjhaya)`,
    String
      .raw`^(?:(?:is |ye |yeh )?video (?:ko |ke (?:baare|bare) (?:me|mein) )?)?(?:samjhao|samjhaiye|batao|bataiye)` +
    String.raw`(?: (?:na|please|plz|pls|zara))*$`,
  ],
  offlinePhrases: {
    summary: "वीडियो के मुख्य अंश, उसके ट्रांसक्रिप्ट से लिए गए:",
    question: "वीडियो के वे अंश जो आपके प्रश्न से सबसे अधिक मेल खाते हैं:",
    noMatch: "ऐसा लगता है कि वीडियो में इस बारे में बात नहीं की गई है। इसके मुख्य अंश:",
    otherLanguage: "हिंदी में कोई ट्रांसक्रिप्ट उपलब्ध नहीं था, इसलिए अंश वीडियो की भाषा में दिए गए हैं।",
  },
};
