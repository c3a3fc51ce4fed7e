/** @module The whole-video vocabulary of the five answer languages, as patterns over a folded prompt. */
import type { Language } from "../chat-request.ts";

/**
 * Phrases that make a prompt a request about the whole video, per language,
 * as regular-expression sources over the prompt folded by `foldPrompt`: lower
 * case, no Latin accents, `ё` as `е`, no Devanagari nukta, hyphens as spaces,
 * trailing punctuation gone (so `$` is the end of the last word). Each is
 * matched as whole words. They name what a reader asks of the whole: a
 * summary, the main points, takeaways, an outline, chapters or timestamps,
 * what it is about, a list of everything of a kind, the overall argument or
 * structure. Words that also serve a detail ("main", "all", "chapter", "about")
 * appear only in the phrases where they ask for the whole ("main points",
 * "list all", "chapters", "what is it about" at the end of the prompt).
 * Hindi includes the Latin-letter spellings most people type (Hinglish).
 */
export const WHOLE_VIDEO_PHRASES: Record<Language, readonly string[]> = {
  en: [
    String.raw`summar\p{L}*|recap\p{L}*|overview|gist|synopsis|rundown|run down|tl ?;? ?dr|tl dr|cliff ?notes|eli5`,
    String.raw`sum (?:(?:it|this|that|everything|things|the video) )?up|in a nutshell|short version|long story short`,
    String.raw`(?:main|key|important|essential|central|core|major|big|biggest|top|primary|principal|crucial|notable)` +
    String.raw` (?:points?|ideas?|takeaways?|lessons?|messages?|arguments?|topics?|themes?|moments|things|parts` +
    String.raw`|facts|insights?|conclusions?|highlights?|concepts?|claims?|steps|findings|tips|learnings)`,
    String.raw`takeaways?|highlights|lessons|bullet ?points?|bullets|outline|chapters|chapter (?:list|markers|titles)`,
    String.raw`time ?stamps|time ?codes|table of contents|(?:each|every|all the|into) (?:sections?|parts|segments?)`,
    String.raw`what(?:'?s| is| was)? (?:this|that|it|the)(?: [\p{L}']+){0,2} (?:all )?about$`,
    String.raw`what (?:does|did|do|is|are|was) (?:he|she|they|it|this|the \p{L}+|this \p{L}+)` +
    String.raw` (?:talk|talking|speak|speaking|say|saying|cover|covering|discuss|discussing|explain|explaining` +
    String.raw`|teach|teaching|go over|going over|show|showing|describe|describing|present|presenting|argue|arguing)` +
    String.raw`(?: about| us)?(?: (?:in|on|from) (?:this|the|that) \p{L}+)?$`,
    String.raw`(?:what|which) (?:topics|subjects|themes|issues|things|ideas|arguments|concepts)`,
    String.raw`topics (?:covered|discussed)`,
    String.raw`(?:main|central|overall|general|core) (?:topic|theme|subject|idea|message|point|argument|thesis` +
    String.raw`|conclusion|takeaway|opinion|impression|sentiment|tone|story|purpose|goal|claim|lesson|focus)`,
    String.raw`verdict|conclusions?|thesis|(?:line|chain) of (?:reasoning|argument)|pros (?:and|&) cons|pros ?/ ?cons`,
    String.raw`strengths and weaknesses|advantages and disadvantages`,
    String.raw`point of (?:this|the) (?:video|talk|lecture|podcast|episode|clip|film|movie|story)`,
    String.raw`overall$|in general$|all in all$|on the whole$`,
    String.raw`(?:whole|entire|full) (?:video|thing|talk|lecture|podcast|episode|clip|movie|film|stream)`,
    String.raw`(?:start|beginning) to (?:end|finish)|what did i miss|what happens in (?:the|this) (?:video|episode)`,
    String.raw`(?:don'?t|do not) have (?:the )?time to watch|no time to watch|worth (?:watching|my time|a watch)`,
    String.raw`(?:explain|describe|break down|walk me through|go over|go through|retell)` +
    String.raw` (?:this|the|that) (?:whole |entire )?(?:video|clip|talk|lecture|podcast|episode|movie|film|vlog)`,
    String.raw`(?:explain|describe|walk me through|retell|tell me about) (?:it|this|that|this video|the video)` +
    String.raw`(?: to me)?(?: briefly| quickly| simply| please)?$|break (?:it|this|that|everything) down`,
    String.raw`(?:list|enumerate|name|give me|tell me|show me|what are|what were|which are|write down|compile)` +
    String.raw`(?: [\p{L}\p{N}']+){0,5} (?:all|every|each|everything)`,
    String.raw`^(?:please |pls |can you |could you )?(?:list|enumerate)|(?:a|numbered|bullet|bulleted|full) list`,
    String.raw`everything (?:he|she|they|that|covered|mentioned|said|discussed)|everything$`,
    String.raw`in (?:chronological |the right |the )?order(?! to)|step by step|one by one|how many times`,
    String.raw`how is (?:it|this|the \p{L}+) (?:structured|organi[sz]ed|laid out)|structure of (?:the|this) \p{L}+`,
    String.raw`what (?:can|do|did|will|should) (?:i|we|you) learn|(?:short|brief|quick) description`,
    String.raw`condense (?:it|this|that|the video|everything)|(?:study|lecture|class) notes|notes (?:from|on) this`,
    String.raw`what are the (?:steps|stages|phases|tips|rules|reasons|recommendations|suggestions|examples|options)`,
    String.raw`(?:what|which) \p{L}+s (?:does|did|do) (?:he|she|they|the \p{L}+) (?:give|make|recommend|mention` +
    String.raw`|suggest|share|list|offer|visit|try|cover|name|go through)`,
    String.raw`what'?s the story$|story of (?:this|the) (?:video|episode)|what'?s covered|what (?:is|gets) covered`,
    String.raw`(?:what|which) \p{L}+s (?:are|were) (?:in|on|there|covered|mentioned|shown|featured|included)`,
  ],
  es: [
    String.raw`resum\p{L}*|sintesis|sintetiz\p{L}*|sinopsis|recapitul\p{L}*|en resumidas cuentas`,
    String.raw`de que (?:trata|va|se trata)|(?:de|sobre|acerca de) que (?:habla|hablan|es|son)` +
    String.raw`(?: (?:en )?(?:el|este|ese) (?:video|clip|podcast|programa|episodio|charla))?$`,
    String.raw`que se (?:explica|dice|cuenta|habla|trata|ensena|muestra)(?: en (?:el|este|ese) \p{L}+)?$|listado`,
    String.raw`que (?:dice|cuenta|explica|ensena|muestra|plantea)(?: (?:el|este|ese) video| el autor| el)?$`,
    String.raw`(?:puntos|ideas|temas|aspectos|mensajes|conceptos|lecciones|momentos|datos|consejos|argumentos)` +
    String.raw` (?:clave|claves|principales|importantes|mas importantes|centrales|fundamentales|esenciales` +
    String.raw`|destacad\p{L}*|relevantes)`,
    String.raw`(?:principales|mas importantes) (?:puntos|ideas|temas|conclusiones|lecciones|mensajes|argumentos)`,
    String.raw`(?:idea|tema|mensaje|punto|argumento|conclusion|proposito) (?:principal|central|general|clave)`,
    String.raw`lo (?:mas )?(?:esencial|importante|principal|fundamental|destacable)(?: del \p{L}+)?$`,
    String.raw`conclusiones|aprendizajes|lecciones|ensenanzas|moraleja|veredicto|esquema|estructur\p{L}*`,
    String.raw`que (?:aprendo|aprendi|aprendemos|se aprende|puedo aprender|podemos aprender|nos ensena|me ensena)`,
    String.raw`capitulos|secciones|marcas de tiempo|(?:minutos|tiempos|marcas) de cada|indice`,
    String.raw`(?:divide|dividir|separa|parte|organiza)(?: [\p{L}\p{N}]+){0,5} (?:partes|secciones|capitulos)`,
    String.raw`(?:enumera|enumerame|lista|listame|nombra|menciona|dime|dame|cuales son|cuales fueron|escribe)` +
    String.raw`(?: [\p{L}\p{N}]+){0,5} (?:todos|todas|cada|todo lo)`,
    String.raw`lista (?:de|con)|^(?:lista|enumera)|tod[oa]s l[oa]s \p{L}+ que|todo lo que`,
    String.raw`en orden|por orden|uno por uno|paso a paso|cuantas veces|(?:que|cuales) (?:temas|asuntos)`,
    String.raw`pros y contras|ventajas y desventajas|vision general|panorama|a grandes rasgos|en general$`,
    String.raw`(?:video|charla|podcast|episodio) (?:completo|entero)|todo el (?:video|podcast|episodio)`,
    String.raw`de principio a fin|no tengo tiempo|vale la pena verlo|que me perdi|idea (?:del|de este) video`,
    String.raw`(?:que|cuales) (?:consejos|recomendaciones|pasos|ejemplos|lugares|productos|libros|herramientas` +
    String.raw`|errores|razones|ingredientes|materiales) (?:da|dan|recomienda|menciona|propone|sugiere|visita|visitan` +
    String.raw`|usa|utiliza|necesita|comparte|hay)|temas del \p{L}+`,
    String.raw`^(?:explica|explicame|cuentame|describe|describeme|resume|resumeme)` +
    String.raw`(?: (?:el|este|ese) video| todo| lo| brevemente| rapido| por favor| porfa| pls)*$`,
    String.raw`(?:explica|explicame|describe|cuenta|cuentame) (?:el|este|ese) (?:video|clip|podcast|episodio)`,
  ],
  pt: [
    String.raw`resum\p{L}*|sintes\p{L}*|sintetiz\p{L}*|sinopse|recapitul\p{L}*`,
    String.raw`do que (?:se )?trata|(?:sobre|de) o que (?:e|fala|trata|falam)(?: [\p{L}]+){0,2}$`,
    String.raw`(?:do|de) que (?:ele |ela |eles )?(?:fala|falam|trata)(?: (?:o|esse|este|n[oa]|nesse|neste) \p{L}+)?$`,
    String.raw`quais \p{L}+s (?:tem|ha|sao|aparecem|estao) (?:n[oa]|nesse|neste|em)`,
    String.raw`o que (?:ele|ela|eles|o video|esse video|este video|o autor|o cara)` +
    String.raw` (?:fala|diz|conta|explica|aborda|ensina|mostra|apresenta|defende)(?: no video(?: todo| inteiro)?)?$`,
    String.raw`(?:pontos|ideias|temas|assuntos|mensagens|conceitos|licoes|momentos|topicos|argumentos|dicas)` +
    String.raw` (?:chave|principais|importantes|mais importantes|centrais|fundamentais|essenciais|relevantes)`,
    String.raw`principais (?:pontos|ideias|licoes|temas|assuntos|mensagens|conclusoes|aprendizados|momentos` +
    String.raw`|topicos|dicas|argumentos)`,
    String.raw`(?:ideia|tema|mensagem|ponto|argumento|conclusao|proposito) (?:principal|central|geral)`,
    String.raw`o (?:mais )?(?:essencial|importante|principal)(?: do \p{L}+)?$`,
    String.raw`conclusoes|aprendizados|licoes|ensinamentos|moral da historia|veredito|esboco|roteiro`,
    String.raw`estrutur\p{L}*`,
    String.raw`o que (?:eu )?(?:aprendo|aprendi|se aprende|posso aprender|aprendemos)`,
    String.raw`capitulos|secoes|marcac\p{L}* de tempo|minutagem|indice`,
    String.raw`(?:divid\p{L}*|separ\p{L}*|organiz\p{L}*)(?: [\p{L}\p{N}]+){0,5} (?:partes|secoes|capitulos)`,
    String.raw`(?:liste|lista|listar|enumere|enumera|cite|diga|me de|me da|quais sao|quais foram|escreva)` +
    String.raw`(?: [\p{L}\p{N}]+){0,5} (?:todos|todas|cada|tudo)`,
    String.raw`lista (?:de|com)|^(?:liste|lista|enumere)|tod[oa]s [oa]s \p{L}+ que`,
    String.raw`tudo (?:o )?que (?:ele|ela|eles|o video) (?:diz|fala|conta|explica|menciona|mostra)`,
    String.raw`em ordem|na ordem|um por um|passo a passo|quantas vezes|(?:quais|que) (?:assuntos|temas|topicos)`,
    String.raw`pros e contras|vantagens e desvantagens|visao geral|panorama|em linhas gerais|no geral$`,
    String.raw`(?:video|palestra|podcast|episodio) (?:completo|inteiro|todo)|do (?:inicio|comeco) ao fim`,
    String.raw`nao tenho tempo|vale a pena (?:assistir|ver)|o que eu perdi|ideia do video|lista d(?:as|os|e)`,
    String.raw`(?:que|quais) (?:as |os )?(?:dicas|conselhos|recomendacoes|passos|exemplos|lugares|produtos|livros` +
    String
      .raw`|ferramentas|erros|motivos|ingredientes|materiais) (?:ele |ela |eles )?(?:da|dao|recomenda|menciona|sugere` +
    String.raw`|visita|usa|cita|precisa)`,
    String.raw`^(?:explica|explique|me explica|me conta|conta|descreve|descreva|resume)` +
    String.raw`(?: (?:o|esse|este) video| tudo| rapidinho| rapido| brevemente| por favor| pfv| pls)*$`,
  ],
  ru: [
    String.raw`перескаж\p{L}*|пересказ\p{L}*|резюм\p{L}*|конспект\p{L}*|саммари|суммариз\p{L}*|в двух словах`,
    String.raw`кратк\p{L}* (?:содержан|пересказ|изложен|обзор|сут|вывод)\p{L}*`,
    String.raw`(?:вкратце|кратко|коротко)[, :]*(?:о чем|что (?:он|она|они|автор) (?:говорит|рассказывает))`,
    String.raw`(?:расскажи|перескажи|опиши|объясни|изложи)(?: \p{L}+)? (?:вкратце|кратко|коротко)` +
    String.raw`|(?:вкратце|кратко|коротко)$`,
    String.raw`о чем (?:это |этот |само |вообще )?(?:видео|ролик\p{L}*|лекци\p{L}*|доклад\p{L}*|выпуск\p{L}*` +
    String.raw`|подкаст\p{L}*|фильм\p{L}*|стрим\p{L}*|видос\p{L}*|это|речь)`,
    String.raw`о чем (?:(?:он|она|они|автор|спикер|лектор|ведущий|блогер) )?(?:говорит|говорят|рассказывает` +
    String.raw`|рассказывают|рассуждает)(?: в (?:этом |этой )?\p{L}+)?$`,
    String.raw`какие \p{L}+ (?:входят|есть в|были в|упоминаются|показаны|перечислены)`,
    String.raw`про что (?:это |этот )?(?:видео|ролик\p{L}*|лекци\p{L}*|это)`,
    String.raw`(?:основн|главн|ключев|важн|центральн|существенн)\p{L}* (?:мысл|иде|момент|пункт|тезис|вывод|тем` +
    String.raw`|урок|аргумент|посыл|факт|этап|шаг|положени|поняти|совет)\p{L}*`,
    String.raw`(?:общ|итогов|главн|основн)\p{L}* (?:вывод|смысл|иде|мысл|посыл|впечатлен|вердикт|мнени)\p{L}*`,
    String.raw`(?:расскажи|скажи|назови) (?:самое )?(?:главное|важное|основное)|самое (?:главное|важное)$|главное$`,
    String.raw`в чем (?:суть|соль|идея)|суть|смысл (?:этого )?(?:видео|ролика|лекции|доклада|выступления)`,
    String.raw`выводы|итоги|подытож\p{L}*|чему (?:учит|научит|можно научиться)|уроки|вердикт`,
    String.raw`что (?:можно |я могу )?(?:узнать|вынести|почерпнуть) из`,
    String.raw`главы|глав(?:ам|ами|ах)|таймкод\p{L}*|тайм код\p{L}*|временн\p{L}* метк\p{L}*|оглавлен\p{L}*`,
    String.raw`(?:разбей|раздели|разделить|разбить|подели|поделить)(?: \p{L}+){0,4} (?:част|раздел|глав|блок)\p{L}*`,
    String.raw`по (?:разделам|частям|главам|блокам)|план (?:видео|лекции|ролика|доклада|урока)|составь план`,
    String.raw`структур\p{L}*|аргументаци\p{L}*|перечисл\p{L}*|списк\p{L}*|список|все \p{L}+,? (?:которые|что)`,
    String.raw`по порядку|шаг за шагом|пошагов\p{L}*|по очереди|сколько раз|один за другим`,
    String.raw`плюсы и минусы|за и против|достоинства и недостатки|в целом$`,
    String.raw`(?:все|весь|целиком) (?:видео|ролик)|видео целиком|(?:от|с) начала до конца|нет времени`,
    String.raw`стоит ли (?:смотреть|тратить)|что я пропустил|о главном$|выжимк\p{L}*`,
    String.raw`что (?:в|во) (?:этом |этой )?(?:видео|ролике|лекции)$`,
    String.raw`какие (?:темы|вопросы|идеи|мысли|места|советы|проблемы|аспекты|ингредиенты|инструменты|материалы)`,
    String.raw`^(?:расскажи|опиши|объясни|перескажи|поясни)` +
    String.raw`(?: (?:видео|это|все|ролик|пожалуйста|плиз|мне|кратко|вкратце|коротко|подробно))*$`,
  ],
  hi: [
    String.raw`सारांश\p{L}*|सार|संक्षेप|संक्षिप्त|निचोड|समरी|समराइज`,
    String.raw`(?:किस|किन|किसके) (?:बारे|विषय|विषयों|चीज)`,
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
};
