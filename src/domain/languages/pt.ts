/** @module Portuguese: what the service needs to answer in it (an entry of the language table). */
import { stemmer } from "@orama/stemmers/portuguese";
import type { LanguageFacts } from "./language-facts.ts";

export const PORTUGUESE: LanguageFacts = {
  name: "Portuguese",
  script: "latin",
  stopWords:
    "os as um uma uns umas do da dos das ao aos no na nos nas em é são foi que se seu sua seus suas por para com " +
    "como não sim mais mas muito este esta isso isto esse essa há qual quando onde quem ele ela eles elas",
  stem: stemmer,
  genericWords: "diz disse acha fala pensa conta vídeo autor",
  questionCues: {
    words: "o os as é quanto quanta quantos quantas onde quando quem qual do da dos das um uma e diz acha fala há na " +
      "estão são foi tem têm seus mas muito também depois conta não",
    letters: /[ãõçêôà]/u,
  },
  wholeVideoPhrases: [
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
  offlinePhrases: {
    summary: "Momentos principais do vídeo, tirados da sua transcrição:",
    question: "Trechos do vídeo que melhor respondem à sua pergunta:",
    noMatch: "O vídeo não parece falar sobre isso. Seus momentos principais:",
    otherLanguage: "Não havia transcrição em português, então os trechos são citados no idioma do vídeo.",
  },
};
