/** @module Caption bodies the fixtures lack: hand-written srv3, a truncated and an empty transcript. */
/**
 * Caption bodies the captured fixtures lack (see `FIXTURES_DIR` in fixtures.ts):
 * hand-written in YouTube's srv3 format (times in milliseconds), and faulty
 * variants of the captured classic `transcript.xml`.
 */
import { fixture } from "./fixtures.ts";

/** srv3, as ANDROID baseUrls return it with `fmt=srv3` kept: the same cue times as transcript.xml, in ms. */
export const SRV3 = `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">
<head><pen id="1" b="1"/></head>
<body>
<p t="0" d="1540" w="1"><s ac="0">Hey,</s><s t="400" ac="0"> this</s><s t="800" ac="0"> is srv3</s></p>
<p t="1540" d="4160">caf&#233; &amp; &quot;tea&quot;</p>
<p t="5000" d="500"></p>
<p t="5700" d="3239">last line</p>
</body>
</timedtext>`;

/** transcript.xml cut off in its third cue, as a dropped connection leaves it. */
export function truncatedTranscript(): string {
  const body = fixture("transcript.xml");
  return body.slice(0, body.indexOf("just something") + 10);
}

/** A caption document with no cue at all. */
export const EMPTY_TRANSCRIPT = '<?xml version="1.0" encoding="utf-8" ?><transcript></transcript>';

/** Cue starts of {@linkcode TIMED_CLASSIC} and {@linkcode TIMED_SRV3}, in seconds, far apart so units show. */
export const TIMED_STARTS = [0, 125.5, 3725.25] as const;

const SENTENCES = [
  "The first sentence of this made up transcript opens the video here.",
  "The second sentence of this made up transcript comes two minutes in.",
  "The third sentence of this made up transcript comes after an hour.",
];

/** Classic format (seconds): three whole sentences, so each is its own line for the model. */
export const TIMED_CLASSIC = `<?xml version="1.0" encoding="utf-8" ?><transcript>${
  SENTENCES.map((s, i) => `<text start="${TIMED_STARTS[i]}" dur="4.5">${s}</text>`).join("")
}</transcript>`;

/** srv3 (milliseconds): the same cues. */
export const TIMED_SRV3 = `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>${
  SENTENCES.map((s, i) => `<p t="${TIMED_STARTS[i]! * 1000}" d="4500">${s}</p>`).join("")
}</body></timedtext>`;
