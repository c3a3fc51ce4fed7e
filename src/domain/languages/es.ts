/** @module Spanish: what the service needs to answer in it (an entry of the language table). */
import { stemmer } from "@orama/stemmers/spanish";
import type { LanguageFacts } from "./language-facts.ts";

export const SPANISH: LanguageFacts = {
  name: "Spanish",
  script: "latin",
  stopWords:
    "el la los las un una unos unas de del al y o en es son fue que qué se su sus por para con como cómo no sí lo " +
    "le les ya muy más pero este esta esto ese esa eso hay cuál cuándo dónde quién",
  stem: stemmer,
  genericWords: "dice dijo opina piensa habla cuenta explica vídeo autor",
  questionCues: {
    words: "el la los las es qué cómo cuánto cuánta cuántos cuántas dónde cuándo quién cuál del y una un dice piensa " +
      "habla hay lo al están son fue opina tiene tienen sus pero muy también después cuenta",
    letters: /[ñ¿¡]/u,
  },
  wholeVideoPhrases: [
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
  offlinePhrases: {
    summary: "Momentos clave del vídeo, tomados de su transcripción:",
    question: "Fragmentos del vídeo que mejor responden a tu pregunta:",
    noMatch: "El vídeo no parece hablar de esto. Sus momentos clave:",
    otherLanguage: "No había transcripción en español, así que los fragmentos se citan en el idioma del vídeo.",
  },
};
