/** @module Splits text into index terms in any script: normalised, stop words dropped, crudely stemmed. */
/**
 * Words of a text as index terms, in any script: lower case, NFKC, letters
 * with their combining marks (Devanagari vowel signs are marks) and digits.
 * The commonest function words of the five response languages are dropped,
 * as are one-letter words. Each term is cut to its first six code points: a
 * crude, language-agnostic stemmer that joins "keyboard"/"keyboards",
 * "resumen"/"resumir", "планшет"/"планшета" at the price of some false
 * friends.
 *
 * @param text any text
 * @returns its terms, in order, repeats kept
 */
export function terms(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const word of words) {
    const chars = [...word];
    if ((chars.length < 2 && !/\p{N}/u.test(word)) || STOPWORDS.has(word)) continue;
    out.push(chars.length > STEM_LENGTH ? chars.slice(0, STEM_LENGTH).join("") : word);
  }
  return out;
}

/** Code points a term keeps of a longer word. */
export const STEM_LENGTH = 6;

const STOPWORDS = new Set(
  [
    // en
    "the an and or of to in on at for with is are was were be been it its this that these those what which who how " +
    "why when where do does did can could would should will he she they we you his her their our your my me him " +
    "them not no yes there here as by from about into than then so if but just also very",
    // es
    "el la los las un una unos unas de del al y o en es son fue que qué se su sus por para con como cómo no sí lo " +
    "le les ya muy más pero este esta esto ese esa eso hay cuál cuándo dónde quién",
    // pt
    "os as um uma uns umas do da dos das ao aos no na nos nas em é são foi que se seu sua seus suas por para com " +
    "como não sim mais mas muito este esta isso isto esse essa há qual quando onde quem ele ela eles elas",
    // ru
    "и в во не на что как это он она они мы вы я с со к по из за от до для о об но а же ли то все так его её их " +
    "был была были есть бы у ну вот",
    // hi
    "है हैं था थे थी का की के को में से पर और या यह वह ये वे कि जो तो भी ने एक इस उस कर क्या कैसे कब कहाँ क्यों " +
    "नहीं हो",
  ]
    .join(" ")
    .split(" "),
);
