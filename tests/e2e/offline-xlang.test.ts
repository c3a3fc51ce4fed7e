/** @module End-to-end tests of offline answers across languages from a video's English and Spanish tracks. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml } from "../support/long-transcript.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

/** The tablet review's English and Spanish manual tracks, aligned by time; the battery line comes back in the recap. */
const LINES: [number, string, string][] = [
  [
    0,
    "Hello everyone, today I am reviewing the Surface Go tablet in detail.",
    "Hola a todos, hoy analizo en detalle la tableta Surface Go.",
  ],
  [
    20,
    "The design is thin and the magnesium body feels solid in the hand.",
    "El diseño es delgado y el cuerpo de magnesio se siente sólido en la mano.",
  ],
  [
    40,
    "The screen is bright and sharp, even outdoors in the sun.",
    "La pantalla es brillante y nítida, incluso al aire libre bajo el sol.",
  ],
  [
    62,
    "The keyboard cover is comfortable for typing long emails.",
    "La funda con teclado es cómoda para escribir correos largos.",
  ],
  [
    85,
    "The kickstand opens to almost any angle you could want.",
    "El soporte trasero se abre casi en cualquier ángulo que quieras.",
  ],
  [
    100,
    "Performance is fine for office work but slow for games.",
    "El rendimiento sirve para ofimática pero es lento para juegos.",
  ],
  [
    118,
    "The battery lasts between six and seven hours in my tests.",
    "La batería dura entre seis y siete horas en mis pruebas.",
  ],
  [
    140,
    "Charging from empty to full takes a little over two hours.",
    "Cargarla de vacía a llena lleva algo más de dos horas.",
  ],
  [
    160,
    "The rear camera takes decent photos but struggles in low light.",
    "La cámara trasera hace fotos decentes pero sufre con poca luz.",
  ],
  [
    182,
    "The speakers are loud and clear for movies and music.",
    "Los altavoces suenan fuertes y claros para películas y música.",
  ],
  [
    200,
    "My neighbour's dog barked all morning, sorry about the noise.",
    "El perro de mi vecino ladró toda la mañana, perdón por el ruido.",
  ],
  [
    220,
    "The software only installs apps from the official store.",
    "El sistema solo instala aplicaciones de la tienda oficial.",
  ],
  [
    240,
    "The price starts at four hundred dollars without the cover.",
    "El precio empieza en cuatrocientos dólares sin la funda.",
  ],
  [
    262,
    "Against other small laptops it holds up well on build quality.",
    "Frente a otros portátiles pequeños aguanta bien en calidad de construcción.",
  ],
  [
    281,
    "Overall I would recommend it to students who want a small laptop.",
    "En general la recomendaría a estudiantes que quieren un portátil pequeño.",
  ],
  [
    300,
    "The battery lasts between six and seven hours in my tests.",
    "La batería dura entre seis y siete horas en mis pruebas.",
  ],
  [310, "Thanks for watching, and see you in the next video.", "Gracias por ver el vídeo, y nos vemos en el próximo."],
];

const track = (column: 1 | 2) =>
  captionXml(
    LINES.map((line, i) => ({
      start: line[0],
      duration: (LINES[i + 1]?.[0] ?? 316) - line[0] - 0.5,
      text: line[column],
    })),
  );
const BATTERY_ES = "La batería dura entre seis y siete horas en mis pruebas.";

let h: LlmHarness;
beforeAll(async () => {
  h = await startLlmHarness({ ANSWER_CACHE_TTL_MS: "0", LOG_FORMAT: "json" }, { offline: true });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.youtube.setCaption(VIDEOS.normal.id, track(1), "en");
  h.youtube.setCaption(VIDEOS.normal.id, track(2), "es");
});

const captionLanguages = () =>
  h.youtube.seen.filter((s) => s.endpoint === "caption").map((s) => s.query.tlang ?? s.query.lang);

describe("offline answers across languages (GJLlxj_dtq8: English and Spanish manual tracks)", () => {
  test("an English question asked in Spanish gets the battery passage, in Spanish, with its timestamp, once; one extra caption request, none when cached", async () => {
    const response = await h.chat({
      url: watchUrl("normal"),
      prompt: "How long does the battery last?",
      language: "es",
    });
    const { output } = await response.json();
    expect(output).toStartWith("Fragmentos del vídeo que mejor responden a tu pregunta:");
    expect(output).toContain(`[1:58] ${BATTERY_ES}`);
    expect(output.split(BATTERY_ES).length - 1).toBe(1);
    expect(output).not.toContain("The battery");
    // Today's requests (one player call, the Spanish track) plus the English track.
    expect(h.youtube.count("player")).toBe(1);
    expect(captionLanguages()).toEqual(["es", "en"]);
    expect((await requestLogLines(h.service, response))[0]).toMatchObject({
      status: 200,
      cache: "miss",
      extra_youtube_requests: 1,
    });

    h.youtube.reset();
    const again = await h.chat({ url: watchUrl("normal"), prompt: "Is the screen bright enough?", language: "es" });
    expect((await again.json()).output).toContain("[0:40] La pantalla es brillante y nítida");
    expect(h.youtube.seen).toHaveLength(0);
    expect((await requestLogLines(h.service, again))[0]).toMatchObject({ extra_youtube_requests: 0 });
  });

  test("a Spanish question about the English track gets the English passage", async () => {
    const response = await h.chat({
      url: watchUrl("normal"),
      prompt: "¿Cuánto dura la batería?",
      language: "en",
      output_format: "markdown",
    });
    const { output } = await response.json();
    expect(output).toStartWith("Passages of the video that best match your question:");
    expect(output).toContain("- [1:58] The battery lasts between six and seven hours in my tests.");
    expect(output).not.toContain("[5:00]");
  });

  test("the summary quotes the repeated line once, and reads no second track (F1xioXWb8CY, translated into Spanish)", async () => {
    h.youtube.setCaption(VIDEOS.twoTracks.id, track(1), "en");
    h.youtube.setCaption(VIDEOS.twoTracks.id, track(2), "es");
    const response = await h.chat({ url: watchUrl("twoTracks"), language: "es" });
    const { output } = await response.json();
    const quoted = (output as string).split("\n").filter((line) => line.startsWith("["));
    expect(quoted.length).toBeGreaterThanOrEqual(3);
    const texts = quoted.map((line) => line.replace(/^\[[\d:]+\] /, ""));
    expect(new Set(texts).size).toBe(texts.length);
    expect(h.youtube.seen.find((s) => s.endpoint === "caption")?.query.tlang).toBe("es");
    expect(captionLanguages()).toEqual(["es"]);
  });

  test("a question after a summary of the same video costs one caption request: the cached track is quoted, the player response reused", async () => {
    h.youtube.setCaption(VIDEOS.twoTracks.id, track(1), "en");
    h.youtube.setCaption(VIDEOS.twoTracks.id, track(2), "es");
    await h.chat({ url: watchUrl("twoTracks"), language: "es" });
    h.youtube.reset();
    h.youtube.setCaption(VIDEOS.twoTracks.id, track(1), "en");
    const response = await h.chat({
      url: watchUrl("twoTracks"),
      prompt: "How long does the battery last?",
      language: "es",
    });
    expect((await response.json()).output).toContain(`[1:58] ${BATTERY_ES}`);
    expect(h.youtube.seen.map((s) => `${s.endpoint}:${s.query.tlang ?? s.query.lang ?? ""}`)).toEqual(["caption:en"]);
    expect((await requestLogLines(h.service, response))[0]).toMatchObject({ extra_youtube_requests: 1 });
  });

  test("says the video does not talk about it only when neither track matches", async () => {
    const { output } = await (await h.chat({
      url: watchUrl("normal"),
      prompt: "What does it say about quantum physics?",
      language: "es",
    })).json();
    expect(output).toStartWith("El vídeo no parece hablar de esto");
  });
});
