/** @module Tests of where Redis is: one server's URL, or a cluster's seed nodes. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";

describe("REDIS_URL and REDIS_CLUSTER_NODES", () => {
  test("a URL is one server; seed nodes are a cluster, bare host:port read as redis://", () => {
    expect(loadConfig({ REDIS_URL: "redis://cache:6379/2" }).redis).toEqual({ url: "redis://cache:6379/2" });
    expect(loadConfig({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, redis://:pw@10.0.0.2:7001" }).redis).toEqual({
      clusterNodes: ["redis://10.0.0.1:7000", "redis://:pw@10.0.0.2:7001"],
    });
    expect(loadConfig({ REDIS_CACHE_CLUSTER_NODES: "rediss://c1:6380" }).redisCache).toEqual({
      clusterNodes: ["rediss://c1:6380"],
    });
    expect(loadConfig({}).redis).toBeUndefined();
  });

  test("both set, a node that is not a Redis address, a db number or two schemes: start-up refused, no password shown", () => {
    expect(() => loadConfig({ REDIS_URL: "redis://a:1", REDIS_CLUSTER_NODES: "b:2" })).toThrow(
      /Set REDIS_URL or REDIS_CLUSTER_NODES, not both/,
    );
    for (const nodes of ["http://a:1", "redis://:secret@a:1/3", "a:1,:2", "redis://a:1?x=1"]) {
      let message = "";
      try {
        loadConfig({ REDIS_CLUSTER_NODES: nodes });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain("REDIS_CLUSTER_NODES must list host:port or redis://host:port nodes");
      expect(message).not.toContain("secret");
    }
    expect(() => loadConfig({ REDIS_CACHE_CLUSTER_NODES: "redis://a:1,rediss://b:2" })).toThrow(
      /REDIS_CACHE_CLUSTER_NODES must use one scheme for every node/,
    );
  });

  test("on a cluster, a key prefix with braces is refused: it would put every key on one node", () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: "a:1", REDIS_KEY_PREFIX: "{vcs}:" })).toThrow(
      /REDIS_KEY_PREFIX must not hold \{ or \} on a Redis Cluster/,
    );
    expect(loadConfig({ REDIS_URL: "redis://a:1", REDIS_KEY_PREFIX: "{vcs}:" }).redisKeyPrefix).toBe("{vcs}:");
  });
});
