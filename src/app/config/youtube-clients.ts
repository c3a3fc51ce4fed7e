/** @module Reads YOUTUBE_CLIENTS and YOUTUBE_AUDIO_CLIENTS: NAME:VERSION identities, defaults from the table. */
import {
  atCurrentVersions,
  DEFAULT_AUDIO_CLIENT_NAMES,
  DEFAULT_CLIENT_NAMES,
} from "../../adapters/youtube/innertube-clients.ts";
import type { EnvReader } from "./readers.ts";

/** A client as configured; the client table adds its id, user agent and device fields. */
export interface ClientSetting {
  name: string;
  version: string;
}

/**
 * @param read the environment reader (problems are added to it)
 * @returns the caption clients (`YOUTUBE_CLIENTS`) and the audio clients (`YOUTUBE_AUDIO_CLIENTS`), in order; each
 *   defaults to the client table's current versions
 */
export function readYoutubeClients(read: EnvReader): { clients: ClientSetting[]; audioClients: ClientSetting[] } {
  return {
    clients: readList(read, "YOUTUBE_CLIENTS", DEFAULT_CLIENT_NAMES),
    audioClients: readList(read, "YOUTUBE_AUDIO_CLIENTS", DEFAULT_AUDIO_CLIENT_NAMES),
  };
}

function readList(read: EnvReader, variable: string, defaults: readonly string[]): ClientSetting[] {
  const current = atCurrentVersions(defaults);
  const example = current.map(({ name, version }) => `${name}:${version}`).join(",");
  const clients = read.list(variable).map((entry) => {
    const parts = entry.split(":").map((s) => s.trim());
    const [name, version] = parts;
    if (parts.length !== 2 || !name || !version || !/^[A-Z][A-Z0-9_]*$/.test(name) || !/^\d+(\.\d+)*$/.test(version)) {
      read.fail(
        `${variable} must list NAME:VERSION pairs such as ${example} (names in capitals, versions in numbers and ` +
          `dots): current entry is ${JSON.stringify(entry)}`,
      );
    }
    return { name: name ?? "", version: version ?? "" };
  });
  return clients.length > 0 ? clients : current;
}
