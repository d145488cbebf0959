import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { MailCatcher } from '../../server/test/mail-catcher.js';
import { started } from '../../server/test/started.js';
import { sharedBrowser } from './browser.js';
import { type BusServer, type RunningServer, startServer, startServerWithBus } from './server.js';

export interface UseE2eOptions {
  /** The server's configuration; a function when it depends on something started in another beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Opens the embedded broker's listener (startServerWithBus): the server is a BusServer. */
  bus?: boolean;
  /** Starts a real SMTP catcher and points SMTP_URL at it. */
  mail?: boolean;
  /** Uses Chromium (default true): the worker's shared browser, in contexts of the suite's own. */
  browser?: boolean;
}

/** What an e2e suite works with; everything exists from beforeAll on. */
export interface E2eContext<S extends RunningServer = RunningServer> {
  /** The built server, started once per suite. */
  readonly server: S;
  readonly browser: Browser;
  /** The real SMTP catcher (with `mail: true`). */
  readonly mail: MailCatcher;
  /** A fresh page in a context of its own, closed (if the test did not) in afterAll. */
  page(options?: BrowserContextOptions): Promise<Page>;
  /**
   * Stops the server and starts it again on the same port and data, with `env` on top of its
   * configuration: `server` is the new one from then on.
   */
  restart(env?: Record<string, string>): Promise<S>;
}

/**
 * The one e2e fixture: called at describe level, it starts the mail catcher and the built server
 * and takes the worker's Chromium in beforeAll, closes what each test opened after it, and the
 * suite's contexts, the server and the catcher in afterAll. A suite's own afterAll (registered
 * after this call) runs first.
 */
export function useE2e(options: UseE2eOptions & { bus: true }): E2eContext<BusServer>;
export function useE2e(options?: UseE2eOptions): E2eContext;
export function useE2e(options: UseE2eOptions = {}): E2eContext<RunningServer> {
  const mail = new MailCatcher();
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const start = (env: Record<string, string>) => (options.bus ? startServerWithBus(env) : startServer(env));

  beforeAll(async () => {
    if (options.mail) await mail.start();
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    server = await start({ ...(options.mail ? { SMTP_URL: mail.url } : {}), ...env });
    if (options.browser !== false) browser = await sharedBrowser();
  });
  // What a test opened is closed after it: every open page keeps rendering what the stream sends,
  // so pages left open until the end of a long suite cost CPU for every test after them. Contexts
  // opened in a beforeAll stay for the suite.
  let kept = new Set<BrowserContext>();
  beforeEach(() => {
    kept = new Set(browser?.contexts());
  });
  afterEach(async () => {
    for (const context of browser?.contexts() ?? [])
      if (!kept.has(context)) await context.close().catch(() => {});
  });
  afterAll(async () => {
    for (const context of browser?.contexts() ?? []) await context.close().catch(() => {});
    await server?.stop();
    if (options.mail) await mail.stop();
  });

  return {
    get server() {
      return started(server, "the suite's server");
    },
    get browser() {
      return started(browser, "the suite's browser");
    },
    mail,
    async page(contextOptions = {}) {
      const context = await started(browser, "the suite's browser").newContext(contextOptions);
      return context.newPage();
    },
    async restart(env = {}) {
      const before = started(server, "the suite's server");
      await before.stop();
      server = await start({ ...before.env, PORT: String(before.port), DATA_DIR: before.dataDir, ...env });
      return server;
    },
  };
}
