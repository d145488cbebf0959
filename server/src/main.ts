import { buildApp } from './app.js';
import { ConfigError, parseConfig } from './config/config.js';

/** Parses the environment, starts Hearth, and shuts it down gracefully on SIGTERM/SIGINT. */
async function main() {
  // Whatever the process writes (DATA_DIR's database, pictures, secrets, mail) is its user's
  // alone: folders 0700, files 0600, also for files a library creates.
  process.umask(0o077);
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  let hearth: Awaited<ReturnType<typeof buildApp>>;
  try {
    hearth = await buildApp(config);
  } catch (error) {
    process.stderr.write(`Hearth could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const { log } = hearth;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    hearth.close(10_000).then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  try {
    await hearth.listen();
  } catch (error) {
    process.stderr.write(
      `Hearth could not listen on ${config.host}:${config.port}: ${(error as Error).message}\n`,
    );
    await hearth.close(0).catch(() => {});
    process.exit(1);
  }
  const address = hearth.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl.replace(`:${config.port}`, `:${port}`);
  log.info({ url, database: hearth.storage.dialect, bus: hearth.bus.description }, 'Hearth is ready');
  process.stdout.write(`Hearth is ready on ${url}\n`);
}

main().catch((error) => {
  process.stderr.write(`Hearth stopped: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
