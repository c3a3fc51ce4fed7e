/** @module English: what the service needs to answer in it (an entry of the language table). */
import { stemmer } from "@orama/stemmers/english";
import type { LanguageFacts } from "./language-facts.ts";

export const ENGLISH: LanguageFacts = {
  name: "English",
  script: "latin",
  stopWords:
    "the an and or of to in on at for with is are was were be been it its this that these those what which who how " +
    "why when where do does did can could would should will he she they we you his her their our your my me him " +
    "them not no yes there here as by from about into than then so if but just also very",
  stem: stemmer,
  genericWords:
    "say says said tell talk talking speak mention mentions think thinks opinion explain video videos guy speaker " +
    "author host presenter narrator reviewer",
  questionCues: {
    words:
      "the is are was were what how does do did of and to in about which who why when where you it this that with " +
      "long much many say says said think thinks there they he she his her video talk talks mention mentions tell " +
      "can could would should be has have after before",
  },
  wholeVideoPhrases: [
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
    // "every afternoon" and the like say when, not that the whole is asked for.
    String.raw`(?: [\p{L}\p{N}']+){0,5} (?:all|every|each|everything)(?! (?:day|morning|afternoon|evening|night|week` +
    String.raw`|month|year|time|hour|minute|spring|summer|autumn|winter|season)s?(?![\p{L}]))`,
    String.raw`^(?:please |pls |can you |could you )?(?:list|enumerate)|(?:a|numbered|bullet|bulleted|full) list`,
    // "Everything he says" asks for the whole; "everything he knows" is a detail about him.
    String.raw`everything (?:(?:he|she|they) (?:says|said|covers|covered|mentions|mentioned|discusses|discussed` +
    String.raw`|talks about|talked about|explains|explained|shows|showed|goes over|went over)|(?:that )?(?:is |was )?` +
    String.raw`(?:covered|mentioned|said|discussed))|everything$`,
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
  offlinePhrases: {
    summary: "Key moments of the video, picked from its transcript:",
    question: "Passages of the video that best match your question:",
    noMatch: "The video does not seem to talk about this. Its key moments:",
    otherLanguage: "No transcript in English was available, so the passages are quoted in the language of the video.",
  },
};
