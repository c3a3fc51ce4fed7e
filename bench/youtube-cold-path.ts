/** @module Cold-path benchmark of the YouTube transcript fetch through `POST /chat`: round trips and own time. */
/**
 * Cold-path benchmark of the YouTube transcript fetch, end to end through
 * `POST /chat`: `bun bench/youtube-cold-path.ts [latencyMs] [samples]`.
 *
 * Starts the loopback fake YouTube with `latencyMs` injected on every request
 * (50 by default), the fake LLM (no injected latency) and the real service
 * with both caches off, so every request is cold. For each path it prints the
 * number of sequential YouTube round trips and the service's own time: the
 * end-to-end time minus round trips × the bare round-trip time measured
 * against the same fake in the same run. Loopback only; bounded by `samples`.
 */
import { ask, startYoutubeRig, type YoutubeRig } from "../tests/support/service/youtube.ts";
import { fixture, VIDEOS } from "../tests/support/fixtures.ts";

const latencyMs = Number(process.argv[2] ?? 50);
const samples = Number(process.argv[3] ?? 20);
const VIDEO_NAMES = ["normal", "alteredAgent", "twoTracks"] as const;
const LANGUAGES = ["en", "es", "pt", "ru", "hi"] as const;

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Bare round trips from this process to the fake: the same two requests the primary path makes. */
async function bareRoundTrip(rig: YoutubeRig): Promise<number> {
  const times: number[] = [];
  const caption = JSON.parse(fixture(VIDEOS.normal.player)).captions.playerCaptionsTracklistRenderer.captionTracks[2]
    .baseUrl as string;
  const captionUrl = `${rig.youtube.origin}${new URL(caption).pathname}${
    new URL(caption).search.replace("&fmt=srv3", "")
  }`;
  for (let i = 0; i < samples; i++) {
    let started = performance.now();
    await (await fetch(`${rig.youtube.origin}/youtubei/v1/player?prettyPrint=false`, {
      method: "POST",
      body: JSON.stringify({ videoId: VIDEOS.normal.id }),
    })).text();
    times.push(performance.now() - started);
    started = performance.now();
    await (await fetch(captionUrl)).text();
    times.push(performance.now() - started);
  }
  return median(times);
}

interface PathResult {
  name: string;
  roundTrips: number[];
  endToEnd: number[];
}

async function measure(rig: YoutubeRig, name: string, setup: () => void): Promise<PathResult> {
  const result: PathResult = { name, roundTrips: [], endToEnd: [] };
  for (let i = 0; i < samples + 1; i++) {
    rig.youtube.reset();
    setup();
    const video = VIDEOS[VIDEO_NAMES[i % VIDEO_NAMES.length]!].id;
    const language = LANGUAGES[i % LANGUAGES.length]!;
    const outcome = await ask(rig.service, video, { language, prompt: `${name} question ${i}?` });
    if (outcome.status !== 200) throw new Error(`${name}: POST /chat answered ${outcome.status} ${outcome.code}`);
    if (i === 0) continue; // warm-up
    result.roundTrips.push(rig.youtube.seen.length);
    result.endToEnd.push(outcome.ms);
  }
  return result;
}

const rig = await startYoutubeRig({ YOUTUBE_TIMEOUT_MS: "10000" }, { latencyMs });
try {
  const bare = await bareRoundTrip(rig);
  const paths = [
    await measure(rig, "primary (InnerTube)", () => {}),
    // The first client's caption URLs need a proof-of-origin token (`exp=xpe`): the next client's are read.
    await measure(rig, "second client", () =>
      rig.youtube.setPlayerGate({
        tracks: (client, tracks) =>
          client === "ANDROID" ? tracks.map((t) => ({ ...t, baseUrl: `${t.baseUrl}&exp=xpe` })) : tracks,
      })),
    // Key-less player answers the reader cannot read send it to the watch page (a bot check would be a 503 at once).
    await measure(rig, "watch-page fallback", () => {
      rig.youtube.setPlayerGate({ garbleKeyless: true });
      rig.youtube.setWatch("page");
    }),
    await measure(rig, "consent wall", () => {
      rig.youtube.setPlayerGate({ garbleKeyless: true });
      rig.youtube.setWatch("consent");
    }),
  ];
  console.log(
    `YouTube cold path through POST /chat: loopback, ${latencyMs} ms injected per YouTube request, caches off, ${samples} samples per path (after 1 warm-up)`,
  );
  console.log(`baseline: bare round trip to the fake YouTube, measured in this run: median ${bare.toFixed(1)} ms`);
  console.log("path                  round trips  end-to-end median / p90     service's own time median / p90");
  for (const p of paths) {
    const trips = median(p.roundTrips);
    const own = p.endToEnd.map((ms, i) => ms - p.roundTrips[i]! * bare);
    console.log(
      `${p.name.padEnd(22)}${String(trips).padStart(11)}  ${median(p.endToEnd).toFixed(1).padStart(9)} / ${
        quantile(p.endToEnd, 0.9).toFixed(1).padStart(6)
      } ms` +
        `     ${median(own).toFixed(1).padStart(6)} / ${quantile(own, 0.9).toFixed(1).padStart(5)} ms`,
    );
  }
} finally {
  await rig.close();
}
