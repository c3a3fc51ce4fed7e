/** @module Issued API keys in a JSON file (`KEYS_FILE`), with atomic writes and a lock file. */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { KeyIdentity } from "../../domain/ports.ts";
import { type KeyDigest, sha256Hex } from "./key-digest.ts";
import { identityOf, isKeyRecord, type IssuedApiKeys, type KeyRecord, withSettings } from "./issued-api-keys.ts";

/** The file's content: `{"version": 1, "keys": [KeyRecord, ...]}`. */
interface KeysFile {
  version: 1;
  keys: KeyRecord[];
}

/** Where a file store reports trouble reading its file. */
export interface FileKeysLog {
  warn(event: string, fields?: Record<string, unknown>): void;
}

/**
 * Issued keys in a JSON file (`KEYS_FILE`), for a single instance without
 * Redis. Every change is written to a temporary file then renamed over the
 * old one, so a reader never sees half a file, and is made under a lock
 * (`<path>.lock`), so concurrent CLI runs never lose each other's change. A
 * running server notices changes made by the CLI at once: each verification
 * costs one `stat` of the file, and the file is read again only when its
 * inode, size or mtime moved.
 *
 * @param options.path the file; created (with its folder) on the first `add`
 * @param options.log told when the file cannot be read or parsed (the last good copy is kept)
 * @param options.digest how presented keys are digested (SHA-256; swappable in tests)
 * @throws {Error} from `add`/`revoke`/`list` when the file exists but is not a keys file
 */
export function createFileApiKeys(options: { path: string; log?: FileKeysLog; digest?: KeyDigest }): IssuedApiKeys {
  const path = options.path;
  const digestOf = options.digest ?? sha256Hex;
  let stamp = "";
  let byDigest = new Map<string, KeyIdentity>();
  let broken = "";

  /** Reads the file strictly: a missing file is empty, a bad one throws. */
  const load = (): KeyRecord[] => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<KeysFile>;
    if (parsed?.version !== 1 || !Array.isArray(parsed.keys) || !parsed.keys.every(isKeyRecord)) {
      throw new Error(
        `The keys file ${path} is not a keys file (expected {"version": 1, "keys": [...]}); fix or move it`,
      );
    }
    return parsed.keys;
  };

  const save = (keys: KeyRecord[]): void => {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, keys } satisfies KeysFile, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, path);
  };

  /** Re-reads the file when it changed since the last look; keeps the last good copy on failure. */
  const refresh = (): void => {
    let now: string;
    try {
      const stat = statSync(path);
      now = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      now = "missing";
    }
    if (now === stamp) return;
    try {
      byDigest = new Map(load().map((record) => [record.sha256, identityOf(record)]));
      stamp = now;
      broken = "";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== broken) options.log?.warn("keys_file_unreadable", { path, error: message });
      broken = message;
    }
  };

  return {
    async verify(key) {
      const digest = digestOf(key);
      refresh();
      return byDigest.get(digest);
    },
    async add(record) {
      await underLock(path, () => save([...load(), record]));
    },
    async list() {
      return load();
    },
    async revoke(id) {
      return await underLock(path, () => {
        const keys = load();
        const found = keys.find((record) => record.id === id);
        if (found) save(keys.filter((record) => record !== found));
        return found;
      });
    },
    async update(id, change) {
      return await underLock(path, () => {
        const keys = load();
        const found = keys.find((record) => record.id === id);
        if (!found) return undefined;
        const updated = withSettings(found, change);
        save(keys.map((record) => record === found ? updated : record));
        return updated;
      });
    },
  };
}

/** How long a writer waits for the lock (a change holds it for milliseconds). */
const LOCK_WAIT = { retries: 100, minTimeout: 20, maxTimeout: 200, factor: 1.3 };
/** A lock not refreshed for this long belongs to a crashed writer and is taken over. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs a read-modify-write of the keys file under an exclusive lock
 * (proper-lockfile: an atomic `mkdir` of `<path>.lock`, refreshed while held,
 * taken over once stale). The file may not exist yet, so its path is not resolved.
 */
async function underLock<T>(path: string, change: () => T): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  // Loaded only by writers (the keys command): at load it hooks the process's signals, which the server handles itself.
  const { lock } = await import("./exclusive-lock.ts");
  const release = await lock(path, { realpath: false, stale: LOCK_STALE_MS, retries: LOCK_WAIT });
  try {
    return change();
  } finally {
    await release();
  }
}
