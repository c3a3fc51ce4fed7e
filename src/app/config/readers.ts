/** @module Reads typed settings from an environment, collecting every problem rather than stopping at the first. */
/** The values an integer setting may take, both ends included. */
export interface IntRange {
  min: number;
  max: number;
}

/** How a URL setting is read. */
export interface UrlOptions {
  /** Keep only scheme, host and port (`https://www.youtube.com/` is `https://www.youtube.com`). */
  origin?: boolean;
  /** The value may hold credentials (a proxy's): a problem names the setting, never its value. */
  secret?: boolean;
}

/** Ports: 0 asks the system for a free one. */
export const PORTS: IntRange = { min: 0, max: 65_535 };

/** Reads typed settings from an environment, collecting every problem instead of stopping at the first. */
export class EnvReader {
  readonly problems: string[] = [];
  #env: Record<string, string | undefined>;

  constructor(env: Record<string, string | undefined>) {
    this.#env = env;
  }

  /** @returns the trimmed value, or undefined when unset or blank */
  raw(name: string): string | undefined {
    const value = this.#env[name]?.trim();
    return value === "" ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  /** An integer within the range, both ends included. */
  int(name: string, fallback: number, { min, max }: IntRange): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || parsed < min || parsed > max) {
      this.problems.push(
        `${name} must be a whole number from ${min} to ${max}: current value is ${JSON.stringify(value)}`,
      );
      return fallback;
    }
    return parsed;
  }

  /** An integer within the range, or undefined when unset. */
  optionalInt(name: string, range: IntRange): number | undefined {
    return this.raw(name) === undefined ? undefined : this.int(name, range.min, range);
  }

  /** A listening address: an IPv4 or IPv6 literal, or a host name. */
  host(name: string, fallback: string): string {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!isHost(value)) {
      this.problems.push(
        `${name} must be an IP address or a host name such as 0.0.0.0, ::1 or localhost: current value is ${
          JSON.stringify(value)
        }`,
      );
      return fallback;
    }
    return value;
  }

  /** A comma-separated list, blanks dropped. */
  list(name: string): string[] {
    return (this.raw(name) ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(", ")}: current value is ${JSON.stringify(value)}`);
    return fallback;
  }

  /** An http(s) URL, without its trailing slashes (or its origin only, when asked). */
  url(name: string, fallback: string, options: UrlOptions = {}): string {
    return this.optionalUrl(name, options) ?? fallback;
  }

  /** An http(s) URL, or undefined when unset or wrong (a wrong one is a problem). */
  optionalUrl(name: string, { origin = false, secret = false }: UrlOptions = {}): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
      return origin ? url.origin : value.replace(/\/+$/, "");
    } catch {
      this.problems.push(
        `${name} must be an http or https URL: ${
          secret ? "its value is not shown, as it may hold credentials" : `current value is ${JSON.stringify(value)}`
        }`,
      );
      return undefined;
    }
  }

  /** Adds a problem found by a check of the caller's own. */
  fail(message: string): void {
    this.problems.push(message);
  }
}

function isHost(value: string): boolean {
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (ipv4) return ipv4.slice(1).every((octet) => Number(octet) <= 255);
  if (value.includes(":")) return /^[0-9a-f:.]+$/i.test(value) && URL.canParse(`http://[${value}]/`);
  return value.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i.test(value);
}
