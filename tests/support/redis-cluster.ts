/** @module A Redis Cluster of the test's own: three masters on loopback ports, no replicas. */
import { spawn, type Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cluster } from "ioredis";
import { redisServerCommand } from "./redis-server.ts";

/** A running cluster: its nodes' URLs (what `REDIS_CLUSTER_NODES` lists), and its end. */
export interface OwnCluster {
  nodes: string[];
  /** `REDIS_CLUSTER_NODES` naming every master. */
  env: { REDIS_CLUSTER_NODES: string };
  /** A client of the cluster, for a test's own reads (disconnected by {@link dispose}). */
  admin: Cluster;
  /** Kills (SIGKILL) the master serving `port`'s slots: with replicas, one of them is promoted. */
  killNode(port: number): void;
  /** The ports of the nodes that are masters now. */
  masters(): number[];
  /** Stops every node and removes their folder. */
  dispose(): Promise<void>;
}

/** Each node also listens on its port + 10,000 (the cluster bus). */
const BUS_OFFSET = 10_000;

/**
 * Starts three masters (`redis-server --cluster-enabled yes`, and with `replicas` one replica each) on free loopback
 * ports, joins them with `redis-cli --cluster create` (the 16,384 slots split in three) and waits until every node
 * says `cluster_state:ok` (at most 15 s). A failed master's replica is promoted after 2 s (`cluster-node-timeout`).
 */
export async function startOwnCluster(options: { replicas?: boolean } = {}): Promise<OwnCluster> {
  const dir = mkdtempSync(join(tmpdir(), "vcs-cluster-"));
  const ports = await freePorts(options.replicas ? 6 : 3);
  const children: Subprocess[] = ports.map((port) =>
    spawn(
      redisServerCommand(port, dir, [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "2000",
      ]),
      { stdout: "ignore", stderr: "ignore" },
    )
  );
  const dispose = async () => {
    for (const child of children) child.kill("SIGKILL");
    await Promise.all(children.map((child) => child.exited));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await until(() => cli(port, "ping") === "PONG", `redis-server on ${port}`);
    const created = Bun.spawnSync([
      "redis-cli",
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      options.replicas ? "1" : "0",
      "--cluster-yes",
    ]);
    if (created.exitCode !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}`);
    for (const port of ports) {
      await until(() => cli(port, "cluster", "info").includes("cluster_state:ok"), `cluster state on ${port}`);
    }
    // Replicas are told whom to follow after the slots are given: ready once each has synced with its master.
    const synced = (port: number) => {
      const replication = cli(port, "info", "replication");
      return replication.includes("role:master") || replication.includes("master_link_status:up");
    };
    await until(() => ports.filter((port) => cli(port, "role").startsWith("master")).length === 3, "three masters");
    for (const port of ports) await until(() => synced(port), `replication of ${port}`);
  } catch (error) {
    await dispose();
    throw error;
  }
  const nodes = ports.slice(0, 3).map((port) => `redis://127.0.0.1:${port}`);
  const admin = new Cluster(ports.slice(0, 3).map((port) => ({ host: "127.0.0.1", port })));
  return {
    nodes,
    env: { REDIS_CLUSTER_NODES: nodes.join(",") },
    admin,
    killNode: (port) => children[ports.indexOf(port)]!.kill("SIGKILL"),
    masters: () => ports.filter((port) => cli(port, "role").startsWith("master")),
    async dispose() {
      admin.disconnect();
      await dispose();
    },
  };
}

function cli(port: number, ...args: string[]): string {
  return Bun.spawnSync(["redis-cli", "-p", String(port), ...args]).stdout.toString().trim();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 15_000; Date.now() < end; await Bun.sleep(50)) if (check()) return;
  throw new Error(`${what} not ready within 15 s`);
}

/** `count` loopback ports free now, each with its bus port free too. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * (65_535 - BUS_OFFSET - 20_000));
    if (!ports.includes(port) && free(port) && free(port + BUS_OFFSET)) ports.push(port);
  }
  return ports;
}

function free(port: number): boolean {
  try {
    Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}
