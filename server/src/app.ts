import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AccessTokens } from './accounts/access-token.js';
import { registerAccounts } from './accounts/accounts.module.js';
import { Authenticator } from './accounts/authenticate.js';
import { registerOidcRoutes } from './accounts/oidc/oidc.routes.js';
import { registerPictureRoutes } from './accounts/pictures/pictures.routes.js';
import { RefreshSessions } from './accounts/refresh-sessions.js';
import type { SessionTokens } from './accounts/session-tokens.js';
import { type Bus, connectBus } from './bus/bus.js';
import type { Config } from './config/config.js';
import { startDeviceHub } from './devicehub/devicehub.module.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { registerErrorHandling } from './http/errors.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { createLogger } from './logging/logger.js';
import { openStorage, type Storage } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { loadOrCreateSecret } from './storage/secrets.js';
import { waitForDatabase } from './storage/wait-for-database.js';
import { registerUserAdmin } from './users/users.module.js';
import { UsersRepository } from './users/users.repository.js';

/** Everything a domain needs, built once by the composition root. */
export interface AppContext {
  config: Config;
  log: Logger;
  storage: Storage;
  bus: Bus;
  authSecret: string;
  users: UsersRepository;
  accessTokens: AccessTokens;
  /** Who is calling: pre-handlers requireUser/requireRole and userForToken (for the WebSocket). */
  auth: Authenticator;
  /** Issuing and revoking sign-in sessions (access + rotating refresh tokens). */
  sessions: SessionTokens;
}

export interface Hearth {
  app: FastifyInstance;
  context: AppContext;
  /** Listens on config.port/host; resolves with the bound address. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), closes bus and database. */
  close(graceMs?: number): Promise<void>;
}

export interface BuildOptions {
  logger?: Logger;
  /** Built web app to serve; defaults to web/dist of this repository. */
  webRoot?: string;
  /** PostgreSQL schema (tests isolate themselves in one). */
  pgSchema?: string;
}

const defaultWebRoot = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** The composition root: config → database → bus → domains → HTTP. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Hearth> {
  const log = options.logger ?? createLogger(config.logLevel);

  const storage = openStorage({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'hearth.db'),
    ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
  });
  let bus: Bus | undefined;
  try {
    await waitForDatabase(storage, { timeoutMs: config.databaseConnectTimeoutMs, log });
    const applied = await migrateToLatest(storage.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    bus = await connectBus({
      mqttUrl: config.mqttUrl,
      listenPort: config.mqttListenPort,
      host: config.host,
      log,
    });
  } catch (error) {
    await storage.close().catch(() => {});
    throw error;
  }

  const authSecret = config.authSecret ?? loadOrCreateSecret(config.dataDir, 'auth-secret');
  const users = new UsersRepository(storage.db);
  const accessTokens = new AccessTokens(authSecret);
  const context: AppContext = {
    config,
    log,
    storage,
    bus,
    authSecret,
    users,
    accessTokens,
    auth: new Authenticator(accessTokens, users),
    sessions: new RefreshSessions(storage.db, accessTokens),
  };

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });

  let draining = false;
  // While draining, answer in-flight requests with "Connection: close" so keep-alive sockets end
  // with their last response instead of holding the shutdown open.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  await registerSecurityHeaders(app, config.publicUrl);
  await app.register(cookie);
  registerErrorHandling(app);
  await registerAccounts(app, context);
  await registerUserAdmin(app, context);
  await registerPictureRoutes(app, context);
  await registerOidcRoutes(app, context);
  const hub = await startDeviceHub(app, context);
  registerHealthRoutes(app, [
    { name: 'database', check: () => storage.ping().then(() => true) },
    { name: 'bus', check: () => context.bus.connected },
    { name: 'devicehub', check: () => hub.ready() },
    { name: 'http', check: () => app.server.listening },
  ]);
  await registerWebApp(app, options.webRoot ?? defaultWebRoot());

  let closing: Promise<void> | undefined;
  return {
    app,
    context,
    listen: () => app.listen({ port: config.port, host: config.host }),
    close(graceMs = 10_000) {
      closing ??= (async () => {
        draining = true;
        const force = setTimeout(() => {
          log.warn('in-flight requests did not finish in time; closing their connections');
          app.server.closeAllConnections();
        }, graceMs);
        force.unref();
        await app.close();
        clearTimeout(force);
        await hub.close().catch((error) => log.warn({ err: error }, 'device hub close failed'));
        await context.bus.close().catch((error) => log.warn({ err: error }, 'bus close failed'));
        await storage.close().catch((error) => log.warn({ err: error }, 'database close failed'));
      })();
      return closing;
    },
  };
}
