/** @module Whisper's language names (verbose_json `language`) as the ISO codes a transcript carries. */

/** Whisper's own table (openai/whisper `tokenizer.py`), code and name. */
const TABLE =
  "en english,zh chinese,de german,es spanish,ru russian,ko korean,fr french,ja japanese,pt portuguese,tr " +
  "turkish,pl polish,ca catalan,nl dutch," +
  "ar arabic,sv swedish,it italian,id indonesian,hi hindi,fi finnish,vi vietnamese,he hebrew,uk ukrainian,el " +
  "greek,ms malay,cs czech,ro romanian," +
  "da danish,hu hungarian,ta tamil,no norwegian,th thai,ur urdu,hr croatian,bg bulgarian,lt lithuanian,la latin,mi " +
  "maori,ml malayalam,cy welsh," +
  "sk slovak,te telugu,fa persian,lv latvian,bn bengali,sr serbian,az azerbaijani,sl slovenian,kn kannada,et " +
  "estonian,mk macedonian,br breton," +
  "eu basque,is icelandic,hy armenian,ne nepali,mn mongolian,bs bosnian,kk kazakh,sq albanian,sw swahili,gl " +
  "galician,mr marathi,pa punjabi," +
  "si sinhala,km khmer,sn shona,yo yoruba,so somali,af afrikaans,oc occitan,ka georgian,be belarusian,tg tajik,sd " +
  "sindhi,gu gujarati,am amharic," +
  "yi yiddish,lo lao,uz uzbek,fo faroese,ht haitian creole,ps pashto,tk turkmen,nn nynorsk,mt maltese,sa " +
  "sanskrit,lb luxembourgish,my myanmar," +
  "bo tibetan,tl tagalog,mg malagasy,as assamese,tt tatar,haw hawaiian,ln lingala,ha hausa,ba bashkir,jv " +
  "javanese,su sundanese,yue cantonese";

const BY_NAME = new Map(
  TABLE.split(",").map((entry) => {
    const space = entry.indexOf(" ");
    return [entry.slice(space + 1), entry.slice(0, space)] as const;
  }),
);
const CODES = new Set(BY_NAME.values());

/**
 * @param language what whisper said (`English`, `english` or already `en`)
 * @returns the language's code, or undefined when whisper named none it knows
 */
export function languageCode(language: unknown): string | undefined {
  if (typeof language !== "string") return undefined;
  const name = language.trim().toLowerCase();
  if (CODES.has(name)) return name;
  return BY_NAME.get(name);
}
