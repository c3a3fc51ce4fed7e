/** @module The `doctor` command: asks the upstreams whether this configuration still works, and says what to change. */
import { type Config, ConfigError, loadConfig } from "../config/config.ts";
import { type DoctorCheck, renderJson, renderText, runChecks } from "./report.ts";
import { DEFAULT_DOCTOR_VIDEO, youtubeCheck } from "./youtube-check.ts";
import { llmCheck } from "./llm-check.ts";

/** What the command talks to: the environment, two output streams, and (tests) a fetch for every upstream. */
export interface DoctorIo {
  env: Record<string, string | undefined>;
  print(line: string): void;
  printError(line: string): void;
  fetch?: typeof fetch;
}

export const DOCTOR_USAGE = [
  "Usage: doctor [--video ID] [--json]",
  `  Asks YouTube about one video (default ${DEFAULT_DOCTOR_VIDEO}) through every route of YOUTUBE_PROXIES with every`,
  "  client of YOUTUBE_CLIENTS and YOUTUBE_AUDIO_CLIENTS, and prints what each answered; then asks the LLM endpoint",
  "  (LLM_BASE_URL) whether it lists LLM_MODEL and answers one small call with it.",
  "  Exit 0 when one route and client read captions and the model answers, 1 when not (the advice says what to",
  "  change), 2 for bad usage or settings. --json prints one JSON document instead of the tables.",
];

/**
 * The checks the doctor runs, in order. Each is a section of the report with its own rows and verdict: a new check
 * (say, of the LLM endpoint) is one more entry here.
 *
 * @param config the validated settings
 * @param options the video the YouTube check asks about, and the fetch every check sends with (tests)
 */
export function doctorChecks(config: Config, options: { videoId: string; fetch?: typeof fetch }): DoctorCheck[] {
  return [youtubeCheck(config, options), llmCheck(config, options)];
}

/**
 * @param args the arguments after `doctor`
 * @param io environment and output
 * @returns the exit code: 0 every check passed, 1 one failed, 2 bad usage or settings
 */
export async function runDoctorCli(args: readonly string[], io: DoctorIo): Promise<number> {
  const flags = parseFlags(args);
  if (flags === "help") return usage(io, 0);
  if (typeof flags === "string") return usage(io, 2, flags);
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.printError(error.message);
    return 2;
  }
  const report = await runChecks(doctorChecks(config, { videoId: flags.videoId, fetch: io.fetch }));
  if (flags.json) io.print(renderJson(report));
  else for (const line of renderText(report)) io.print(line);
  return report.ok ? 0 : 1;
}

/** @returns the flags, `help`, or what is wrong with them */
function parseFlags(args: readonly string[]): { videoId: string; json: boolean } | string {
  const flags = { videoId: DEFAULT_DOCTOR_VIDEO, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "help" || arg === "-h") return "help";
    if (arg === "--json") flags.json = true;
    else if (arg === "--video" || arg.startsWith("--video=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (value === undefined || !/^[A-Za-z0-9_-]{11}$/.test(value)) {
        return `--video needs a YouTube video id of 11 letters, digits, - or _, such as ${DEFAULT_DOCTOR_VIDEO}`;
      }
      flags.videoId = value;
    } else return `Unknown option ${JSON.stringify(arg)}`;
  }
  return flags;
}

function usage(io: DoctorIo, code: number, problem?: string): number {
  if (problem) io.printError(problem);
  for (const line of DOCTOR_USAGE) (code === 0 ? io.print : io.printError)(line);
  return code;
}
