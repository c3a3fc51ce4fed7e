/** @module Where Redis is: one server's URL, or a Redis Cluster's seed nodes. */
import type { RedisAddress } from "../../adapters/redis/redis-connection.ts";
import type { EnvReader } from "./readers.ts";

/**
 * Reads one server's URL (`urlName`, e.g. `REDIS_URL`) or a cluster's seed nodes (`clusterName`, e.g.
 * `REDIS_CLUSTER_NODES`: `redis://host:port` or `host:port`, comma-separated); setting both is refused. Seed nodes
 * share one scheme (`redis://` or `rediss://`) and one password, which the first one carries when
 * `REDIS_PASSWORD` does not.
 */
export function readRedisAddress(read: EnvReader, urlName: string, clusterName: string): RedisAddress | undefined {
  const url = read.raw(urlName);
  const nodes = read.list(clusterName);
  if (url !== undefined && nodes.length > 0) read.fail(`Set ${urlName} or ${clusterName}, not both`);
  if (nodes.length > 0) {
    const clusterNodes = nodes.map((node) => /^[a-z]+:\/\//.test(node) ? node : `redis://${node}`);
    if (clusterNodes.some((node) => !validNode(node))) {
      read.fail(`${clusterName} must list host:port or redis://host:port nodes, comma-separated`);
      return undefined;
    }
    if (new Set(clusterNodes.map((node) => new URL(node).protocol)).size > 1) {
      read.fail(`${clusterName} must use one scheme for every node: redis:// or rediss://`);
    }
    return { clusterNodes };
  }
  if (url === undefined) return undefined;
  if (!/^rediss?:\/\//.test(url)) read.fail(`${urlName} must start with redis:// or rediss://`);
  return { url };
}

/** A `redis://` or `rediss://` URL with a host (port 6379 unless given), and no db number: a cluster has none. */
function validNode(node: string): boolean {
  try {
    const url = new URL(node);
    return /^rediss?:$/.test(url.protocol) && url.hostname !== "" &&
      (url.pathname === "" || url.pathname === "/") && url.search === "";
  } catch {
    return false;
  }
}
