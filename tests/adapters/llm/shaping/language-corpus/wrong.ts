/** @module Answers of the language-check corpus that are plainly in the wrong language. */
import type { Entry, WrongEntry } from "./corpus.ts";

/** Hindi in Latin letters (Hinglish): plainly not the Devanagari Hindi asked for. */
const hinglish: WrongEntry[] = ([
  [
    "text",
    "Haan, woh kehte hain ki battery lagbhag das ghante chalti hai [2:31]. Unke hisaab se yeh students ke liye achha tablet hai.",
  ],
  [
    "text",
    "Is video mein Surface Go tablet ka review kiya gaya hai. Reviewer ko iski screen aur keyboard pasand hai, lekin battery sirf chhe ghante chali [4:12].",
  ],
  [
    "markdown",
    "## Saaransh\n\nChef classic carbonara banati hain guanciale aur ande ki zardi ke saath [0:35]. Woh kehti hain ki sauce mein **cream nahi** daalni chahiye [2:10].",
  ],
  [
    "text",
    "Doosre half mein Real Madrid ne apni strategy badli. Ancelotti ne Valverde ko right wing par bheja [58:20] aur Rodrygo ne das minute baad barabari ka goal kiya [68:44].",
  ],
  [
    "markdown",
    "Talk ke mukhya points:\n\n1. Zyadatar chhoti teams ke liye Kubernetes zaroorat se zyada hai [5:12].\n2. Jab tak autoscaling ki zaroorat na ho, ek VM kaafi hai [9:30].",
  ],
  [
    "text",
    "Coach samjhate hain ki achha squat ghutno se nahi, kulhon se shuru hota hai. Chhati upar rakhiye aur tab tak neeche jaiye jab tak jaanghein zameen ke barabar na ho jayein [2:18].",
  ],
  [
    "text",
    "Video ke anusaar Roman samrajya 395 mein do hisson mein bant gaya [7:40]. Narrator kehte hain ki pashchimi hissa paison ki tangi aur seemaon par dabav ki wajah se gira [15:22].",
  ],
  ["text", "Nahi, video mein vitamin D ka bas zikr hai [12:44], kitna lena hai yeh nahi bataya gaya hai."],
  [
    "markdown",
    "**Nishkarsh:** agar aap zyadatar handheld mode mein khelte hain to Nintendo Switch OLED lena theek hai [9:15]. Screen zyada chamakdaar hai, par performance purane model jaisi hi hai [6:40].",
  ],
  [
    "text",
    "Shikshika varg poora karke dwighat samikaran hal karti hain [3:40]. Phir woh dikhati hain ki formula se bhi wahi do mool milte hain, x = 2 aur x = -5 [8:12].",
  ],
  [
    "text",
    "Yeh documentary sookhe mausam mein Kalahari paar karte haathiyon ke ek parivaar ke saath chalti hai. Mukhiya hathini unhe ek chhupe hue taalab tak le jaati hai [22:10].",
  ],
  [
    "markdown",
    "Pehli marathon ke liye salah:\n\n- Zyadatar training aasaan raftaar par karein [3:30]\n- Har hafte doori das pratishat se zyada na badhayein [6:15]\n- Lambi daud mein gel khane ka abhyaas karein [11:40]",
  ],
] satisfies Entry[]).map(([format, text]) => ({ asked: "hi", written: "hi-latn", format, text }));

/** Mostly another language, with a sentence or a heading in the one asked for. */
const mixed: WrongEntry[] = [
  {
    asked: "es",
    written: "mixed en+es",
    format: "text",
    text:
      "Claro. The video reviews the Surface Go, a small and light tablet. The reviewer likes the screen and the keyboard cover, and thinks it is good value for students [0:01]. He is less happy with the battery [4:12].",
  },
  {
    asked: "es",
    written: "mixed en+es",
    format: "markdown",
    text:
      "## Resumen\n\nThe chef makes a classic carbonara with guanciale, egg yolks and Pecorino Romano [0:35]. She insists that no cream goes into the sauce [2:10], and she tosses the pasta off the heat so the eggs do not scramble [6:48].",
  },
  {
    asked: "pt",
    written: "mixed en+pt",
    format: "text",
    text:
      "Sim, ele fala disso. In the second half Real Madrid changed their shape: Ancelotti moved Valverde to the right wing [58:20] and brought on Rodrygo, who scored the equaliser ten minutes later [68:44].",
  },
  {
    asked: "pt",
    written: "mixed en+pt",
    format: "markdown",
    text:
      "**Resposta:**\n\n- Kubernetes is overkill for most small teams [5:12].\n- A single VM with Docker Compose is enough until you need autoscaling [9:30].\n- Observability with Prometheus and Grafana should come first [17:05].",
  },
  {
    asked: "ru",
    written: "mixed en+ru",
    format: "text",
    text:
      "Да. The host compares the iPhone 15 Pro and the Pixel 8 Pro. He prefers the Pixel's camera in low light [6:02] but says the iPhone has better video stabilisation and a faster chip [9:47].",
  },
  {
    asked: "hi",
    written: "mixed en+hi",
    format: "text",
    text:
      "हाँ। The lecture explains how photosynthesis turns light into chemical energy, starting with the light-dependent reactions [3:20] and moving on to the Calvin cycle [11:45].",
  },
  {
    asked: "en",
    written: "mixed es+en",
    format: "text",
    text:
      "Sure. El vídeo analiza la Surface Go, una tableta pequeña y ligera. Al autor le gustan la pantalla y el teclado, y cree que es una buena compra para estudiantes [0:01].",
  },
  {
    asked: "es",
    written: "mixed pt+es",
    format: "text",
    text:
      "Sí. O vídeo analisa o Surface Go, um tablet pequeno e leve. O autor gosta da tela e do teclado, e acha que é uma boa compra para estudantes [0:01]. Ele ficou menos satisfeito com a bateria [4:12].",
  },
  {
    asked: "pt",
    written: "mixed es+pt",
    format: "text",
    text:
      "Sim. La cocinera hace una sopa de lentejas sencilla. Sofríe cebolla, zanahoria y apio en aceite de oliva [1:20], añade lentejas rojas, comino y caldo de verduras [3:05] y tritura la mitad al final [9:40].",
  },
];

/** Shouted or Title Case English, English quoting Spanish, and other Latin-script languages. */
const other: WrongEntry[] = [
  {
    asked: "es",
    written: "en (capitals)",
    format: "text",
    text:
      "THE VIDEO REVIEWS THE SURFACE GO, A SMALL AND LIGHT TABLET. THE REVIEWER LIKES THE SCREEN AND THE KEYBOARD COVER, AND THINKS IT IS GOOD VALUE FOR STUDENTS.",
  },
  {
    asked: "es",
    written: "en (Title Case)",
    format: "markdown",
    text:
      "## Key Points\n\n- The Battery Lasts About Ten Hours In Mixed Use [2:31]\n- The Keyboard Cover Is Sold Separately For About A Hundred Dollars [4:10]\n- The Screen Is Bright Enough For Outdoor Use [6:00]",
  },
  {
    asked: "es",
    written: "en quoting es",
    format: "text",
    text:
      'She quotes the Spanish proverb "más vale tarde que nunca" [1:20] and explains that the team shipped the app late but with far fewer bugs, which she thinks was the right trade-off.',
  },
  {
    asked: "es",
    written: "it",
    format: "text",
    text:
      "Il video recensisce il Surface Go, un tablet piccolo e leggero. Al recensore piacciono lo schermo e la tastiera, e pensa che sia un buon acquisto per gli studenti [0:01].",
  },
  {
    asked: "pt",
    written: "fr",
    format: "text",
    text:
      "La vidéo présente la Surface Go, une tablette petite et légère. L'auteur aime l'écran et le clavier, et pense que c'est un bon achat pour les étudiants [0:01].",
  },
  {
    asked: "en",
    written: "de",
    format: "text",
    text:
      "Das Video bespricht das Surface Go, ein kleines und leichtes Tablet. Dem Tester gefallen der Bildschirm und die Tastatur, und er hält es für einen guten Kauf [0:01].",
  },
];

/** Answers that are plainly in another language than the one asked for, beyond the corpus files' cross product. */
export default [...hinglish, ...mixed, ...other] satisfies WrongEntry[];
