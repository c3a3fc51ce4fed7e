/** @module Tests of chained key sources: a key from any source is accepted, the local one first. */
import { describe, expect, test } from "bun:test";
import { createChainedApiKeys } from "../../../src/adapters/keys/chained-api-keys.ts";
import { createStaticApiKeys } from "../../../src/adapters/keys/env-api-keys.ts";
import type { ApiKeys } from "../../../src/domain/ports.ts";

describe("createChainedApiKeys()", () => {
  test("accepts a key from any source, asking the local one first", async () => {
    const asked: string[] = [];
    const store: ApiKeys = {
      async verify(key) {
        asked.push(key);
        return key === "issued-key" ? { id: "key_1", name: "issued" } : undefined;
      },
    };
    const keys = createChainedApiKeys([createStaticApiKeys(["env-key"]), store]);
    expect((await keys.verify("env-key"))?.name).toBe("API_KEYS");
    expect(asked).toEqual([]);
    expect((await keys.verify("issued-key"))?.id).toBe("key_1");
    expect(await keys.verify("unknown")).toBeUndefined();
  });
});
