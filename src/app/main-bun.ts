import { bannerLines } from "./banner.ts";
import { composeService } from "./compose.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";

/** Entry point on Bun: `bun run server`. */
async function main(): Promise<void> {
  // Subcommands (such as `keys`) are dispatched here, before the server starts.
  if (process.argv[2] === "keys") {
    const { runKeysCli } = await import("./keys-cli.ts");
    process.exit(await runKeysCli(process.argv.slice(3), { env: process.env, print: (line) => console.log(line), printError: (line) => console.error(line) }));
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const pretty = config.logFormat === "pretty" || (config.logFormat === "auto" && process.stdout.isTTY === true);
  const logger = createLogger({ write: (line) => console.log(line), pretty });
  const service = await composeService(config, { logger });
  const server = Bun.serve({ port: config.port, hostname: config.host, fetch: service.app.fetch, maxRequestBodySize: config.maxBodyBytes * 4 });
  const shown = config.host === "0.0.0.0" ? "localhost" : config.host;
  for (const line of bannerLines({ url: `http://${shown}:${server.port}`, backend: service.banner.backend, generatedKey: service.banner.generatedKey, runtime: `Bun ${Bun.version}` })) {
    console.log(line);
  }
  const stop = async () => {
    await server.stop();
    await service.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

await main();
