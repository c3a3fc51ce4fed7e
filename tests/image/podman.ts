/** @module Runs podman for the image suite: its commands, and the service's container as a running service. */
import { readFileSync } from "node:fs";
import { type RunningService, startService } from "../support/service/process.ts";

/** The image under test: scripts/image/test.sh builds it and names it here. */
export const IMAGE = process.env.IMAGE_UNDER_TEST ?? "localhost/video-chat-service:latest";

/** Runs `podman ARGS` to its end (with the suite's CONTAINERS_CONF, inherited). */
export async function podman(args: string[], timeoutMs = 60_000): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn(["podman", ...args], { stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code, out: out.trim(), err: err.trim() };
}

/** `podman ARGS`, which must succeed: its standard output. */
export async function podmanOk(args: string[]): Promise<string> {
  const result = await podman(args);
  if (result.code !== 0) throw new Error(`podman ${args.join(" ")} exited ${result.code}: ${result.err}`);
  return result.out;
}

/**
 * Starts the image's service in a container named `name` and waits for its banner. The container shares the
 * host's network (so it reaches the loopback fakes), listens on loopback only at free ports, and gets `env`.
 */
export function startContainer(
  name: string,
  env: Record<string, string>,
  runOptions: string[] = [],
): Promise<RunningService> {
  const settings = { HOST: "127.0.0.1", PORT: "0", ADMIN_HOST: "127.0.0.1", ADMIN_PORT: "0", ...env };
  const command = [
    "podman",
    "run",
    "--rm",
    "--name",
    name,
    ...runOptions,
    ...Object.entries(settings).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    IMAGE,
  ];
  // The client's environment is otherwise emptied: it keeps the suite's podman settings and storage.
  const clientEnv: Record<string, string> = {};
  for (const name of ["CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF"]) {
    if (process.env[name]) clientEnv[name] = process.env[name]!;
  }
  return startService(clientEnv, { command, timeoutMs: 30_000 });
}

/** The host's view of the container's main process: its pid, user ids and whether its root is mounted read-only. */
export async function containerProcess(name: string): Promise<{ pid: number; uids: number[]; gids: number[] }> {
  const pid = Number(await podmanOk(["inspect", "--format", "{{.State.Pid}}", name]));
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const ids = (field: string) =>
    (new RegExp(`^${field}:\\s+(.*)$`, "m").exec(status)?.[1] ?? "").split(/\s+/).map(Number);
  return { pid, uids: ids("Uid"), gids: ids("Gid") };
}

/** @returns the mount options of the root filesystem that process `pid` sees */
export function rootMountOptions(pid: number): string[] {
  const root = readFileSync(`/proc/${pid}/mounts`, "utf8").split("\n").find((line) => line.split(" ")[1] === "/");
  return root?.split(" ")[3]?.split(",") ?? [];
}
