/** @module A labelled cross-language set: one tablet review in every answer language, with questions about it. */
/**
 * A labelled set for cross-language offline answers: one short tablet review
 * written in every answer language, sentence by sentence, so its
 * tracks are aligned by time as YouTube's tracks of one video are; and for
 * each topic, a question in each language whose answer is that topic's
 * sentence. Hand-written for these tests (no machine translation).
 */
import { type Language, LANGUAGES } from "../../../src/domain/chat-request.ts";
import type { Cue } from "../../../src/domain/transcript.ts";

export const SET_LANGUAGES: readonly Language[] = LANGUAGES;

/** One moment of the review in every language, and the question it answers (none for filler). */
interface Moment {
  say: Record<Language, string>;
  ask?: Record<Language, string>;
}

const MOMENTS: Moment[] = [
  {
    say: {
      en: "Hello everyone, today I am reviewing a small tablet from top to bottom.",
      es: "Hola a todos, hoy analizo una tableta pequeña de arriba abajo.",
      pt: "Olá a todos, hoje eu analiso um tablet pequeno de cima a baixo.",
      ru: "Всем привет, сегодня я подробно рассматриваю небольшой планшет.",
      hi: "सभी को नमस्ते, आज मैं एक छोटे टैबलेट की पूरी समीक्षा कर रहा हूँ।",
    },
  },
  {
    say: {
      en: "The battery lasts between six and seven hours in my tests.",
      es: "La batería dura entre seis y siete horas en mis pruebas.",
      pt: "A bateria dura entre seis e sete horas nos meus testes.",
      ru: "Батарея держит от шести до семи часов в моих тестах.",
      hi: "मेरे परीक्षणों में बैटरी छह से सात घंटे चलती है।",
    },
    ask: {
      en: "How long does the battery last?",
      es: "¿Cuánto dura la batería?",
      pt: "Quanto tempo dura a bateria?",
      ru: "Сколько держит батарея?",
      hi: "बैटरी कितनी देर चलती है?",
    },
  },
  {
    say: {
      en: "The screen is bright and sharp, even outdoors in the sun.",
      es: "La pantalla es brillante y nítida, incluso al aire libre bajo el sol.",
      pt: "A tela é brilhante e nítida, mesmo ao ar livre sob o sol.",
      ru: "Экран яркий и чёткий, даже на улице под солнцем.",
      hi: "स्क्रीन चमकदार और साफ़ है, धूप में बाहर भी।",
    },
    ask: {
      en: "Is the screen bright enough?",
      es: "¿La pantalla es brillante?",
      pt: "A tela é brilhante o suficiente?",
      ru: "Достаточно ли яркий экран?",
      hi: "क्या स्क्रीन चमकदार है?",
    },
  },
  {
    say: {
      en: "The keyboard cover is comfortable for typing long emails.",
      es: "La funda con teclado es cómoda para escribir correos largos.",
      pt: "A capa com teclado é confortável para digitar mensagens longas.",
      ru: "Чехол с клавиатурой удобен для набора длинных писем.",
      hi: "कीबोर्ड कवर लंबे ईमेल टाइप करने के लिए आरामदायक है।",
    },
    ask: {
      en: "What is the keyboard like for typing?",
      es: "¿Qué tal el teclado para escribir?",
      pt: "Como é o teclado para digitar?",
      ru: "Удобна ли клавиатура для набора?",
      hi: "टाइप करने के लिए कीबोर्ड कैसा है?",
    },
  },
  {
    say: {
      en: "My neighbour's dog barked all morning, sorry about the noise.",
      es: "El perro de mi vecino ladró toda la mañana, perdón por el ruido.",
      pt: "O cachorro do meu vizinho latiu a manhã toda, desculpe o barulho.",
      ru: "Собака соседа лаяла всё утро, извините за шум.",
      hi: "पड़ोसी का कुत्ता पूरी सुबह भौंकता रहा, शोर के लिए माफ़ी।",
    },
  },
  {
    say: {
      en: "The price starts at four hundred dollars without the cover.",
      es: "El precio empieza en cuatrocientos dólares sin la funda.",
      pt: "O preço começa em quatrocentos dólares sem a capa.",
      ru: "Цена начинается от четырёхсот долларов без чехла.",
      hi: "कवर के बिना कीमत चार सौ डॉलर से शुरू होती है।",
    },
    ask: {
      en: "What is the price?",
      es: "¿Cuál es el precio?",
      pt: "Qual é o preço?",
      ru: "Какая у него цена?",
      hi: "इसकी कीमत क्या है?",
    },
  },
  {
    say: {
      en: "The rear camera takes decent photos but struggles in low light.",
      es: "La cámara trasera hace fotos decentes pero sufre con poca luz.",
      pt: "A câmera traseira tira fotos razoáveis, mas sofre com pouca luz.",
      ru: "Задняя камера делает неплохие фото, но плохо снимает при слабом свете.",
      hi: "पीछे का कैमरा ठीक-ठाक फ़ोटो लेता है लेकिन कम रोशनी में परेशान होता है।",
    },
    ask: {
      en: "How good is the camera?",
      es: "¿Qué tal es la cámara?",
      pt: "A câmera é boa?",
      ru: "Хорошая ли камера?",
      hi: "कैमरा कैसा है?",
    },
  },
  {
    say: {
      en: "Its weight is about half a kilogram, so it is easy to carry.",
      es: "Su peso es de medio kilo, así que es fácil de llevar.",
      pt: "O peso é de meio quilo, então é fácil de levar na mochila.",
      ru: "Его вес около полукилограмма, поэтому его легко носить.",
      hi: "इसका वज़न लगभग आधा किलो है, इसलिए इसे ले जाना आसान है।",
    },
    ask: {
      en: "What is its weight?",
      es: "¿Cuál es su peso?",
      pt: "Qual é o peso?",
      ru: "Какой у него вес?",
      hi: "इसका वज़न कितना है?",
    },
  },
  {
    say: {
      en: "The speakers are loud and clear for movies and music.",
      es: "Los altavoces suenan fuertes y claros para películas y música.",
      pt: "Os alto-falantes são altos e claros para filmes e música.",
      ru: "Динамики громкие и чистые для фильмов и музыки.",
      hi: "स्पीकर फ़िल्मों और संगीत के लिए तेज़ और स्पष्ट हैं।",
    },
    ask: {
      en: "Are the speakers loud?",
      es: "¿Los altavoces suenan bien?",
      pt: "Como são os alto-falantes?",
      ru: "Громкие ли динамики?",
      hi: "स्पीकर कैसे हैं?",
    },
  },
  {
    say: {
      en: "There is one USB-C port, which is also used for charging.",
      es: "Tiene un solo puerto USB-C, que también sirve para cargar.",
      pt: "Tem uma única porta USB-C, que também serve para carregar.",
      ru: "Есть один порт USB-C, он же используется для зарядки.",
      hi: "इसमें एक USB-C पोर्ट है, जो चार्जिंग के लिए भी है।",
    },
    ask: {
      en: "Which port does it have?",
      es: "¿Qué puerto tiene?",
      pt: "Que porta ele tem?",
      ru: "Какой там порт?",
      hi: "इसमें कौन सा पोर्ट है?",
    },
  },
  {
    say: {
      en: "The software only installs apps from the official store.",
      es: "El sistema solo instala aplicaciones de la tienda oficial.",
      pt: "O sistema só instala aplicativos da loja oficial.",
      ru: "Система устанавливает приложения только из официального магазина.",
      hi: "सिस्टम केवल आधिकारिक स्टोर से ऐप इंस्टॉल करता है।",
    },
    ask: {
      en: "Can I install apps from outside the store?",
      es: "¿Puedo instalar aplicaciones fuera de la tienda?",
      pt: "Posso instalar aplicativos de fora da loja?",
      ru: "Можно ли устанавливать приложения не из магазина?",
      hi: "क्या स्टोर के बाहर से ऐप इंस्टॉल कर सकते हैं?",
    },
  },
  {
    say: {
      en: "Overall I would recommend it to students who want a small laptop.",
      es: "En general lo recomendaría a estudiantes que quieren un portátil pequeño.",
      pt: "No geral eu recomendaria para estudantes que querem um notebook pequeno.",
      ru: "В целом я бы рекомендовал его студентам, которым нужен маленький ноутбук.",
      hi: "कुल मिलाकर मैं इसे उन छात्रों को सुझाऊँगा जिन्हें छोटा लैपटॉप चाहिए।",
    },
    ask: {
      en: "Who would you recommend it to?",
      es: "¿A quién lo recomendaría?",
      pt: "Para quem você recomendaria?",
      ru: "Кому вы бы рекомендовали его?",
      hi: "आप इसे किसे सुझाऊँगे?",
    },
  },
  {
    say: {
      en: "Thanks for watching, and see you in the next video.",
      es: "Gracias por ver el vídeo, y nos vemos en el próximo.",
      pt: "Obrigado por assistir, e até o próximo vídeo.",
      ru: "Спасибо за просмотр, увидимся в следующем видео.",
      hi: "देखने के लिए धन्यवाद, अगले वीडियो में मिलते हैं।",
    },
  },
];

/** Seconds between two moments of the review. */
export const MOMENT_SECONDS = 20;

/** @returns the review's track in `language`: one cue per moment, at the same times in every language */
export function reviewCues(language: Language): Cue[] {
  return MOMENTS.map((moment, i) => ({
    start: i * MOMENT_SECONDS + 1,
    duration: MOMENT_SECONDS - 2,
    text: moment.say[language],
  }));
}

/** One labelled question: asked in one language, answered in another, by a known sentence. */
export interface LabelledCase {
  asked: Language;
  answer: Language;
  question: string;
  /** The sentence that answers, in the answer language. */
  expected: string;
  /** Its cue start, seconds. */
  at: number;
}

/** @returns every question in every language, paired with every other answer language */
export function labelledCases(): LabelledCase[] {
  const cases: LabelledCase[] = [];
  MOMENTS.forEach((moment, i) => {
    if (!moment.ask) return;
    for (const asked of SET_LANGUAGES) {
      for (const answer of SET_LANGUAGES) {
        if (answer !== asked) {
          cases.push({
            asked,
            answer,
            question: moment.ask[asked],
            expected: moment.say[answer],
            at: i * MOMENT_SECONDS + 1,
          });
        }
      }
    }
  });
  return cases;
}
