/** @module The YouTube check's verdict: whether captions can be read, and what an operator should change. */
import { currentVersion } from "../../adapters/youtube/innertube-clients.ts";
import type { Config } from "../config/config.ts";
import type { YoutubeRow } from "./probe.ts";

/** Where newer client versions are published, for when the service's own table is behind too. */
const NEWER = "yt-dlp's client table, yt_dlp/extractor/youtube/_base.py";

/**
 * @param rows what every route and client got
 * @param config the settings, to say what to change
 * @returns the verdict (captions read by one caption client on one route), a summary, and advice lines
 */
export function youtubeAdvice(
  rows: readonly YoutubeRow[],
  config: Config,
): { ok: boolean; summary: string; advice: string[] } {
  const readers = rows.filter((r) => r.use === "captions" && r.captions.startsWith("ok"));
  const ok = readers.length > 0;
  const summary = ok
    ? `captions read by ${distinct(readers.map((r) => r.client))} on ${distinct(readers.map((r) => r.route))}`
    : "no route and client of YOUTUBE_CLIENTS read captions";
  const advice = [
    ...retiredAdvice(rows, config),
    ...blockedAdvice(rows),
    ...gatedAdvice(rows),
    ...audioAdvice(rows),
  ];
  if (rows.length > 0 && rows.every((r) => r.player === "unavailable")) {
    advice.push("YouTube says the video is unavailable everywhere: ask about another one with --video ID");
  }
  if (!ok && advice.length === 0) advice.push("See the table: no caption client read captions on any route");
  return { ok, summary, advice };
}

function retiredAdvice(rows: readonly YoutubeRow[], config: Config): string[] {
  const retired = rows.filter((r) => r.player === "retired");
  return [...new Set(retired.map((r) => `${r.use}|${r.client}`))].map((key) => {
    const [use, label] = key.split("|") as [YoutubeRow["use"], string];
    const [name, version] = label.split(" ") as [string, string];
    const variable = use === "captions" ? "YOUTUBE_CLIENTS" : "YOUTUBE_AUDIO_CLIENTS";
    const configured = (use === "captions" ? config.youtube.clients : config.youtube.audioClients)
      .map((c) => `${c.name}:${c.name === name && c.version === version ? newest(name, version) : c.version}`);
    return `YouTube refuses ${label} as retired: set ${variable}=${configured.join(",")}; when YouTube retires ` +
      `those too, the versions its apps send now are in ${NEWER}`;
  });
}

/** @returns the client table's version when it is newer than the one refused; else a placeholder to look up */
function newest(name: string, version: string): string {
  const current = currentVersion(name);
  return current && current !== version ? current : "<newer version>";
}

function blockedAdvice(rows: readonly YoutubeRow[]): string[] {
  const routes = [...new Set(rows.map((r) => r.route))];
  return routes
    .filter((route) =>
      rows.filter((r) => r.route === route).every((r) => r.player === "blocked" || r.captions === "blocked")
    )
    .map((route) =>
      `Route ${route} is blocked by YouTube (bot check, captcha or HTTP 429): replace it in YOUTUBE_PROXIES with ` +
      "rotating residential proxies (docs/operating.md: When YouTube blocks)"
    );
}

function gatedAdvice(rows: readonly YoutubeRow[]): string[] {
  const captionRows = rows.filter((r) => r.use === "captions" && r.player !== "blocked");
  if (captionRows.length === 0 || !captionRows.every((r) => r.player === "gated" || r.player === "retired")) return [];
  if (!captionRows.some((r) => r.player === "gated")) return [];
  return [
    "YouTube gates the caption tracks of every client of YOUTUBE_CLIENTS behind a proof-of-origin token: add a " +
    `client whose tracks are not (${NEWER} lists the clients)`,
  ];
}

function audioAdvice(rows: readonly YoutubeRow[]): string[] {
  const audio = rows.filter((r) => r.use === "audio");
  if (audio.length === 0 || audio.some((r) => r.audio === "ok")) return [];
  return [
    "No client of YOUTUBE_AUDIO_CLIENTS reached a video's audio: with STT=groq, caption-less videos answer 422 until " +
    `it names a client whose audio needs no proof-of-origin token (${NEWER} says which)`,
  ];
}

function distinct(values: readonly string[]): string {
  return [...new Set(values)].join(", ");
}
