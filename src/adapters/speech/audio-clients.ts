/** @module The InnerTube clients asked for a direct audio URL when the primary client offered none. */
import type { InnertubeClient } from "../youtube/player-request.ts";

/**
 * What each known audio client says about itself besides its name and
 * version: the device and OS fields YouTube checks (yt-dlp's client table,
 * `yt_dlp/extractor/youtube/_base.py`, 2026). An unknown name is sent with
 * its name and version only.
 */
const KNOWN: Record<string, Record<string, string | number>> = {
  VISIONOS: {
    deviceMake: "Apple",
    deviceModel: "RealityDevice17,1",
    osName: "visionOS",
    osVersion: "26.5.23O471",
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 " +
      "Safari/605.1.15",
  },
  ANDROID_VR: {
    deviceMake: "Oculus",
    deviceModel: "Quest 3",
    androidSdkVersion: 32,
    osName: "Android",
    osVersion: "12L",
    userAgent: "com.google.android.apps.youtube.vr.oculus/1.65.10 (Linux; U; Android 12L; eureka-user " +
      "Build/SQ3A.220605.009.A1) gzip",
  },
};

/**
 * @param clients names and versions (`YOUTUBE_AUDIO_CLIENTS`)
 * @returns the clients with the context fields each is known by
 */
export function audioClients(clients: readonly { name: string; version: string }[]): InnertubeClient[] {
  return clients.map((client) => ({ ...client, context: KNOWN[client.name] }));
}
