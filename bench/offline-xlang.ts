/** @module Benchmark of the offline engine on the labelled cross-language set, with one and two readings. */
/**
 * The offline engine on the labelled cross-language set (issue 18): 200
 * questions, each asked in one of the five languages about an answer in each
 * other one. Prints how many find their answer passage with one reading of
 * the video (the engine before issue 18) and with two (the answer-language
 * track plus one more), and the engine's own time per question. In process,
 * no network: the tracks come from a fake transcript source.
 *
 * Run: bun bench/offline-xlang.ts
 */
import { createOfflineAnswerWriter } from "../src/adapters/offline/offline-answer-writer.ts";
import { ReviewTracks, scoreOnSet } from "../tests/support/labelled/eval.ts";

async function measure(label: string, readings?: ReviewTracks): Promise<void> {
  const writer = createOfflineAnswerWriter({ readings });
  await scoreOnSet(writer); // warm-up
  const started = performance.now();
  const score = await scoreOnSet(writer);
  const perQuestion = (performance.now() - started) / score.total;
  const share = ((100 * score.hits) / score.total).toFixed(1);
  console.log(
    `${label}: ${score.hits}/${score.total} answer passages found (${share}%), ${score.notDiscussed} "not discussed", ${
      perQuestion.toFixed(2)
    } ms per question`,
  );
}

await measure("one reading (before)");
await measure("two readings (now)", new ReviewTracks());
