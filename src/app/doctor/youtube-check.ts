/** @module The doctor's YouTube check: one known video through every route with every configured client. */
import { clientLabel, innertubeClients } from "../../adapters/youtube/innertube-clients.ts";
import type { Config } from "../config/config.ts";
import { composeYoutubeEgress } from "../compose/youtube.ts";
import { probeClient, type YoutubeRow } from "./probe.ts";
import type { CheckResult, DoctorCheck } from "./report.ts";
import { youtubeAdvice } from "./youtube-advice.ts";

/** A public video with captions in many languages, up since 2018: asked when `--video` names none. */
export const DEFAULT_DOCTOR_VIDEO = "GJLlxj_dtq8";

const COLUMNS = [
  { key: "route", label: "ROUTE" },
  { key: "client", label: "CLIENT" },
  { key: "use", label: "USE" },
  { key: "player", label: "PLAYER" },
  { key: "tracks", label: "TRACKS" },
  { key: "captions", label: "CAPTIONS" },
  { key: "audio", label: "AUDIO" },
] as const;

/**
 * Asks the video through every route of `YOUTUBE_PROXIES` (routes at once, each route's clients one after another)
 * with every client of `YOUTUBE_CLIENTS` and `YOUTUBE_AUDIO_CLIENTS`. It passes when one route and one caption client
 * read captions. Routes are named `direct` or `host:port`, never with credentials.
 *
 * @param config the validated settings
 * @param options the video to ask about, and a fetch replacing every route's (tests)
 * @returns the check
 */
export function youtubeCheck(config: Config, options: { videoId: string; fetch?: typeof fetch }): DoctorCheck {
  return {
    name: "youtube",
    async run(): Promise<CheckResult> {
      const egress = composeYoutubeEgress(config, { fetch: options.fetch });
      const clients = [
        ...innertubeClients(config.youtube.clients).map((client) => ({ client, use: "captions" as const })),
        ...innertubeClients(config.youtube.audioClients).map((client) => ({ client, use: "audio" as const })),
      ];
      const perRoute = await Promise.all(egress.routes.map(async (route) => {
        const connection = route.open();
        try {
          const rows: YoutubeRow[] = [];
          for (const { client, use } of clients) {
            const probe = await probeClient({
              transport: connection.transport,
              videoId: options.videoId,
              client,
              baseUrl: config.youtube.baseUrl,
            });
            rows.push({ route: route.label, client: clientLabel(client), use, ...probe });
          }
          return rows;
        } finally {
          connection.close();
        }
      }));
      const rows = perRoute.flat();
      const verdict = youtubeAdvice(rows, config);
      return {
        name: "youtube",
        title: `YouTube: video ${options.videoId} through ${egress.routes.length} route(s) with ${clients.length} ` +
          `client(s)`,
        columns: COLUMNS,
        rows: rows.map((row) => ({ ...row })),
        ...verdict,
      };
    },
  };
}
