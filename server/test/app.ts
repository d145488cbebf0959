import { Writable } from 'node:stream';
import { buildApp, type Hearth } from '../src/app.js';
import { type Config, parseConfig } from '../src/config/config.js';
import { createLogger } from '../src/logging/logger.js';
import type { TestDatabase } from './databases.js';

/** Captures every JSON log line a test server writes. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

export interface TestApp extends Hearth {
  config: Config;
  logs: LogCapture;
}

/**
 * A whole Hearth (database, bus, routes) on a test database, for app.inject() or listen().
 * `env` holds extra configuration as environment variables, parsed like the real server does.
 */
export async function startTestApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: { webRoot?: string; routes?: (app: Hearth['app']) => void } = {},
): Promise<TestApp> {
  const { databaseUrl, dataDir, pgSchema } = database.appOptions();
  const config = parseConfig({
    PORT: '8080',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIMULATOR: 'off',
    LOG_LEVEL: 'info',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const logs = new LogCapture();
  const hearth = await buildApp(config, {
    logger: createLogger(config.logLevel, logs),
    webRoot: options.webRoot ?? '/nonexistent-web-root',
    ...(pgSchema ? { pgSchema } : {}),
  });
  options.routes?.(hearth.app);
  await hearth.app.ready();
  return Object.assign(hearth, { config, logs });
}
