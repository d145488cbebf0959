import { Writable } from 'node:stream';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type Hearth } from '../src/app.js';
import { parseConfig } from '../src/config/config.js';
import type { HttpApp } from '../src/http/http-app.js';
import { createLogger } from '../src/logging/logger.js';
import type { Clock } from '../src/shared/clock.js';
import type { NewUser, Role, UserRecord } from '../src/users/index.js';
import { AccountsClient } from './accounts-client.js';
import { sqliteDatabase, type TestDatabase } from './databases.js';
import { MailCatcher } from './mail-catcher.js';
import { started } from './started.js';
import { storeUser } from './users.js';

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
  logs: LogCapture;
}

export interface TestAppOptions {
  /** Built web app to serve (default: none). */
  webRoot?: string;
  /** Routes a test adds before the app is ready. */
  routes?: (app: HttpApp) => void;
  onRoute?: (route: RouteOptions) => void;
  /** What time it is for alerts and notifications (a FakeClock, server/test/fake-clock.ts). */
  clock?: Clock;
}

/**
 * A whole Hearth (database, bus, every module) on a test database, for app.inject() or listen().
 * `env` holds extra configuration as environment variables, parsed like the real server does.
 */
export async function startTestApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
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
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  options.routes?.(hearth.app);
  await hearth.app.ready();
  return Object.assign(hearth, { logs });
}

export interface UseTestAppOptions extends TestAppOptions {
  /** Where the app keeps its data: a `create` from testDatabases() (default: a fresh SQLite file). */
  database?: () => Promise<TestDatabase>;
  /** Starts a real SMTP catcher and points SMTP_URL at it. */
  mail?: boolean;
  /** Extra configuration; a function when it depends on something started in another beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
}

/** What a suite works with; `hearth` and `database` exist from beforeAll on. */
export interface TestContext {
  readonly hearth: TestApp;
  readonly app: HttpApp;
  readonly database: TestDatabase;
  /** The real SMTP catcher (with `mail: true`). */
  readonly mail: MailCatcher;
  /** /api/auth calls through app.inject(). */
  readonly api: AccountsClient;
  /** A user stored directly (no sign-up mail), with unique names. */
  user(role: Role, fields?: Partial<NewUser>): Promise<UserRecord>;
  /** A valid access token of the user (a fresh session). */
  tokenFor(user: UserRecord): Promise<string>;
  /** An API call as `user` (or signed out), answered as status and JSON body. */
  call(
    user: UserRecord | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads answers of every shape
  ): Promise<{ status: number; body: any }>;
}

/** A user stored directly (no sign-up mail), with unique names unless `fields` gives them. */
export function createUser(hearth: Hearth, role: Role, fields: Partial<NewUser> = {}): Promise<UserRecord> {
  return storeUser(hearth.users, role, fields);
}

/** A valid access token of the user: a fresh session, as a sign-in would give. */
export const accessToken = async (hearth: Hearth, user: UserRecord): Promise<string> =>
  (await hearth.sessions.issue(user)).access_token;

/**
 * An API call on one of several instances a suite starts itself, with `token`, answered as its JSON
 * body (undefined when empty). Suites with one app use `t.call`.
 */
export async function callInstance(
  hearth: Hearth,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  // biome-ignore lint/suspicious/noExplicitAny: a test reads answers of every shape
): Promise<any> {
  const response = await hearth.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  return response.body ? response.json() : undefined;
}

/**
 * The one test fixture: a Hearth per suite, started in beforeAll and closed (with its database and
 * mail catcher) in afterAll. Storage suites pass `database: create` from `describe.each(testDatabases())`.
 */
export function useTestApp(options: UseTestAppOptions = {}): TestContext {
  const mail = new MailCatcher();
  let hearth: TestApp | undefined;
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    database = options.database ? await options.database() : sqliteDatabase();
    if (options.mail) await mail.start();
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    hearth = await startTestApp(
      database,
      { ...(options.mail ? { SMTP_URL: mail.url } : {}), ...env },
      options,
    );
  });
  afterAll(async () => {
    await hearth?.close();
    if (options.mail) await mail.stop();
    await database?.drop();
  });

  const context: TestContext = {
    get hearth() {
      return started(hearth, "the test app's app");
    },
    get app() {
      return started(hearth, "the test app's app").app;
    },
    get database() {
      return started(database, "the test app's database");
    },
    mail,
    api: new AccountsClient(() => context.app),
    user: (role, fields) => createUser(context.hearth, role, fields),
    tokenFor: (user) => accessToken(context.hearth, user),
    async call(user, method, url, payload) {
      const response = await context.app.inject({
        method,
        url,
        headers: user ? { authorization: `Bearer ${await context.tokenFor(user)}` } : {},
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      return { status: response.statusCode, body: response.body ? response.json() : undefined };
    },
  };
  return context;
}
