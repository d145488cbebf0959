import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { isManager } from '@hearth/contracts';
import type { RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { accessModule } from './access/index.js';
import {
  accountsModule,
  oidcModule,
  picturesModule,
  type SessionTokens,
  type TokenReader,
} from './accounts/index.js';
import { type ActivityModule, activityModule } from './activity/index.js';
import { alertsModule } from './alerts/index.js';
import { type Notifier as AutomationNotifier, automationsModule } from './automations/index.js';
import { type Bus, type BusOptions, connectBus } from './bus/bus.js';
import { BusProbe } from './bus/bus-probe.js';
import type { Config } from './config/config.js';
import { deviceHubModule } from './devicehub/index.js';
import { type HealthCheck, healthModule } from './health/index.js';
import { historyModule } from './history/index.js';
import { clientAddressOf, proxyTrust } from './http/client-address.js';
import { clientConfigModule } from './http/client-config.js';
import { createHttpApp, type HttpApp } from './http/http-app.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { webAppModule } from './http/web-app.js';
import { Lifecycle, type Module } from './lifecycle/module.js';
import { createLogger } from './logging/logger.js';
import { Mailer } from './mail/index.js';
import { notificationsModule } from './notifications/index.js';
import { passesModule } from './passes/index.js';
import { pushModule } from './push/index.js';
import { roomsModule } from './rooms/index.js';
import { scenesModule } from './scenes/index.js';
import { type Clock, systemClock } from './shared/clock.js';
import { preparePrivateDirectory } from './storage/data-dir.js';
import { openStorage, type Storage } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { loadOrCreateSecret, loadOrCreateSharedSecret } from './storage/secrets.js';
import { waitForDatabase } from './storage/wait-for-database.js';
import { apiTokensModule, tokenCall } from './tokens/index.js';
import { UsersRepository, usersModule } from './users/index.js';

export interface Hearth {
  app: HttpApp;
  config: Config;
  log: Logger;
  storage: Storage;
  bus: Bus;
  /** The parts tests and main.ts reach for; domains get theirs through their module's deps. */
  users: UsersRepository;
  sessions: SessionTokens;
  auth: TokenReader;
  /** The activity log (tests flush it). */
  activity: ActivityModule['log'];
  /** Alerts' beat and notifications' sending, run now (tests with a fake clock, docs/alerts.md#tests). */
  alerts: { tick(): Promise<void>; sweep(): Promise<void> };
  /** Automations' beat, run now, and the runs it started settled (tests with a fake clock). */
  automations: { tick(): Promise<void> };
  /** Listens on config.port/host; resolves with the bound address. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), closes modules, bus and database. */
  close(graceMs?: number): Promise<void>;
}

export interface BuildOptions {
  logger?: Logger;
  /** Built web app to serve; defaults to web/dist of this repository. */
  webRoot?: string;
  /** PostgreSQL schema (tests isolate themselves in one). */
  pgSchema?: string;
  /** Sees every route as it is added (the route-table test). */
  onRoute?: (route: RouteOptions) => void;
  /** What time it is for alerts and notifications (tests move it forward). */
  clock?: Clock;
}

/**
 * The embedded broker's credentials: Hearth's own from a secret in DATA_DIR; Zigbee2MQTT's from
 * MQTT_LISTEN_USERNAME/PASSWORD, else generated once, kept in DATA_DIR and logged that one time.
 */
function embeddedBusSettings(config: Config, log: Logger, shellySource: string): BusOptions['embedded'] {
  const internal = { username: 'hearth', password: loadOrCreateSecret(config.dataDir, 'bus-password') };
  const { mqttListenPort: port, mqttListenTls: tls } = config;
  if (port === undefined && tls === undefined) return { internal };
  const username = config.mqttListenUsername ?? 'zigbee2mqtt';
  const password =
    config.mqttListenPassword ??
    loadOrCreateSecret(config.dataDir, 'mqtt-listen-password', (generated) =>
      // Shown this once (the file in DATA_DIR/secrets keeps it); Zigbee2MQTT's configuration needs it.
      log.warn(
        { mqttUsername: username, mqttPassword: generated },
        'generated the MQTT listener credentials for Zigbee2MQTT (shown only this once; also in DATA_DIR/secrets/mqtt-listen-password)',
      ),
    );
  return {
    internal,
    external: {
      host: config.mqttListenHost,
      port,
      tls: tls && { port: tls.port, cert: fs.readFileSync(tls.certFile), key: fs.readFileSync(tls.keyFile) },
      credentials: { username, password },
      // Zigbee2MQTT's base topic, and the roots of the other sources that are on: Home Assistant
      // discovery's prefix; Tasmota's discovery, cmnd, stat and tele; Shelly's configured prefixes
      // (up to their first `+` level) and the topic its RPC replies come on.
      topicRoots: [
        config.zigbee2mqttBaseTopic,
        ...(config.haDiscoveryPrefix ? [config.haDiscoveryPrefix] : []),
        ...(config.tasmotaDiscoveryPrefix ? [config.tasmotaDiscoveryPrefix, 'cmnd', 'stat', 'tele'] : []),
        ...(config.shellyTopicPrefixes
          ? [
              ...config.shellyTopicPrefixes
                .map((prefix) => prefix.split('/+')[0] as string)
                .filter((root) => root !== '+' && root !== ''),
              shellySource,
            ]
          : []),
      ],
    },
  };
}

/**
 * AUTH_SECRET when it is not set: one generated secret kept in the database, so that instances on
 * one database accept each other's tokens (the one an earlier version kept in DATA_DIR moves in).
 */
async function generatedAuthSecret(db: Storage['db'], dataDir: string, log: Logger): Promise<string> {
  const { secret, source } = await loadOrCreateSharedSecret(db, dataDir, 'auth-secret');
  if (source === 'data-dir')
    log.info('AUTH_SECRET from DATA_DIR/secrets/auth-secret is now kept in the database');
  if (source === 'generated') log.info('AUTH_SECRET is not set: generated one and kept it in the database');
  return secret;
}

const defaultWebRoot = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * The composition root, and the only place that wires: config → database → bus → modules → HTTP.
 * Each module declares the dependencies it needs; it is registered, started and closed here, in order.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Hearth> {
  const log = options.logger ?? createLogger(config.logLevel);
  preparePrivateDirectory(config.dataDir, log);

  const storage = openStorage({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'hearth.db'),
    ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
  });
  let bus: Bus;
  let authSecret: string;
  // Hearth's own `src` in Shelly RPC: devices answer on `<src>/rpc`.
  const shellySource = `hearth-shelly-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await waitForDatabase(storage, { timeoutMs: config.databaseConnectTimeoutMs, log });
    const applied = await migrateToLatest(storage.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    authSecret = config.authSecret ?? (await generatedAuthSecret(storage.db, config.dataDir, log));
    bus = await connectBus({
      mqttUrl: config.mqttUrl,
      ...(config.mqttUrl ? {} : { embedded: embeddedBusSettings(config, log, shellySource) }),
      log,
    });
  } catch (error) {
    await storage.close().catch(() => {});
    throw error;
  }

  const app = createHttpApp({
    log,
    trustProxy: config.trustProxy,
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  });
  // Set by the guards on signed-in requests; declared up front so every request has one shape.
  app.decorateRequest('caller', undefined);
  app.decorateRequest('sessionId', undefined);
  let draining = false;
  // While draining, answer in-flight requests with "Connection: close" so keep-alive sockets end
  // with their last response instead of holding the shutdown open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  await registerSecurityHeaders(app, config.publicUrl);
  await app.register(cookie);
  const limits = await registerRateLimit(app, {
    db: storage.db,
    log,
    authPerMinute: config.authRateLimit,
    signupsPerHour: config.signupRateLimit,
  });
  // Before any route: the document collects them as they are added (docs/api.md#openapi).
  await registerOpenApi(app, { publicUrl: config.publicUrl, tokenCall });

  const { db } = storage;
  const users = new UsersRepository(db);
  const mailer = new Mailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log,
    sharedDatabase: storage.dialect === 'postgres',
  });
  // Before the modules that record to it, so it closes after them and writes their last entries.
  const activity = activityModule({
    db,
    log,
    retentionDays: config.activityRetentionDays,
    signedIn: (request) => accounts.auth.user(request),
    // docs/activity.md#who-sees-what: residents and admins read the entries about what they may see
    // (everything without rules), a `user` their own; what an entry names is cut to the same.
    scope: async (viewer) => {
      const own = isManager(viewer.role) ? {} : { actorId: viewer.id };
      const sees = await reach.reachOf(viewer);
      if (sees.everything) return own;
      const sight = await rooms.sight(viewer, sees);
      const deviceIds = deviceHub.gate.visible(sees).map((device) => device.id);
      return {
        ...own,
        viewerId: viewer.id,
        deviceIds,
        roomIds: [...sight.rooms],
        floorIds: [...sight.floors],
      };
    },
  });
  const accounts = accountsModule({
    db,
    log,
    activity: activity.log,
    users,
    mailer,
    authSecret,
    publicUrl: config.publicUrl,
    admin: { email: config.adminEmail, password: config.adminPassword },
    limit: limits.auth,
    signups: limits.signups,
    // Late-bound: API tokens need the hub and the access rules (docs/api.md#api-tokens).
    apiTokens: {
      guard: (token, request) => tokens.guard(token, request),
      revokeAllOf: (userId) => tokens.revokeAllOf(userId),
    },
  });
  const guards = accounts.auth;
  // docs/api.md#health: Hearth's own round trip over the bus, on a topic only this process uses.
  const busProbe = new BusProbe({
    bus,
    topic: `${config.devicehubTopicPrefix}/probe/${crypto.randomUUID()}`,
    log,
  });
  const deviceHub = deviceHubModule({
    db,
    bus,
    log,
    guards,
    auth: accounts.auth,
    publicUrl: config.publicUrl,
    zigbee2mqttBaseTopic: config.zigbee2mqttBaseTopic,
    haDiscoveryPrefix: config.haDiscoveryPrefix,
    tasmotaDiscoveryPrefix: config.tasmotaDiscoveryPrefix,
    shellyTopicPrefixes: config.shellyTopicPrefixes,
    shellySource,
    devicehubTopicPrefix: config.devicehubTopicPrefix,
    maxDevices: config.devicehubMaxDevices,
    simulatorDevices: config.simulator ? config.simulatorDevices : undefined,
    simulatorDropouts: config.simulatorDropouts,
    dataDir: config.dataDir,
    busProbe,
    dialect: storage.dialect,
    sharedBus: config.mqttUrl !== undefined,
    activity: activity.log,
    // Late-bound: the access rules read where devices are from the hub.
    reach: {
      reachOf: (user) => reach.reachOf(user),
      onChange: (listener) => access.reach.onChange(listener),
    },
    // Late-bound too: a guest pass's page on the stream (docs/passes.md#stream), and a script's token.
    passes: (token, from) => passes.authenticate(token, from),
    apiTokens: (token, from) => tokens.stream(token, from),
    clientAddress: clientAddressOf(proxyTrust(config.trustProxy)),
  });
  const access = accessModule({
    db,
    dialect: storage.dialect,
    log,
    guards,
    users,
    devices: deviceHub.devices,
    bus,
    topicPrefix: config.devicehubTopicPrefix,
    activity: activity.log,
  });
  const tokens = apiTokensModule({
    db,
    log,
    guards,
    users,
    reach: access.reach,
    devices: deviceHub.devices,
    gate: deviceHub.gate,
    activity: activity.log,
    limit: { windows: limits.windows, perMinute: config.apiTokenRateLimit },
  });
  // Every caller's reach: a person's access rules; an API token's call, its owner's narrowed by the token.
  const reach: typeof access.reach = {
    reachOf: async (user) => tokens.narrow(user, await access.reach.reachOf(user)),
    onChange: (listener) => access.reach.onChange(listener),
  };
  const passes = passesModule({
    db,
    log,
    guards,
    devices: deviceHub.devices,
    gate: deviceHub.gate,
    users,
    reach: access.reach,
    publicUrl: config.publicUrl,
    timeZone: config.householdTimeZone,
    activity: activity.log,
    lookups: limits.windows,
  });
  const rooms = roomsModule({
    db,
    dialect: storage.dialect,
    log,
    guards,
    devices: deviceHub.devices,
    bus,
    topicPrefix: config.devicehubTopicPrefix,
    activity: activity.log,
    reach,
    rules: access.roomRules,
  });
  // docs/alerts.md: the rules read the hub as the people they tell; notifications reach them.
  const clock = options.clock ?? systemClock;
  const push = pushModule({
    db,
    log,
    guards,
    subject: config.pushSubject,
    allowPrivate: config.pushAllowPrivateEndpoints,
  });
  const notifications = notificationsModule({
    db,
    log,
    guards,
    reach: access.reach,
    bus,
    topicPrefix: config.devicehubTopicPrefix,
    mailer,
    channels: [push.channel],
    // Late-bound: acknowledging stops the incident's repeats.
    acknowledgeIncident: (incidentId, by, at) => alerts.acknowledge(incidentId, by, at),
    publicUrl: config.publicUrl,
    timeZone: config.householdTimeZone,
    clock,
    activity: activity.log,
  });
  const alerts = alertsModule({
    db,
    log,
    guards,
    feed: deviceHub.feed,
    reach: access.reach,
    notifier: notifications.notifier,
    timeZone: config.householdTimeZone,
    clock,
    activity: activity.log,
  });
  // docs/automations.md: scenes and automations act through the hub's gate as their owner.
  const scenes = scenesModule({
    db,
    log,
    guards,
    devices: deviceHub.devices,
    feed: deviceHub.feed,
    gate: deviceHub.gate,
    reach,
    bus,
    topicPrefix: config.devicehubTopicPrefix,
    activity: activity.log,
  });
  // The notify action and the loop breaker's notice, as notifications (docs/automations.md#notify).
  const automationNotifier: AutomationNotifier = {
    notify: (message) => {
      const at = new Date(clock.now()).toISOString();
      return notifications.notifier.publish(
        {
          id: message.id,
          kind: 'automation',
          severity: 'info',
          title: message.title,
          body: message.body,
          device_id: null,
          room_id: null,
          audience: message.to === 'admins' ? 'admins' : 'device',
          ...(typeof message.to === 'object' ? { people: message.to } : {}),
          window_minutes: 0,
          version: 1,
          created_at: at,
          updated_at: at,
          resolved_at: null,
          acknowledged_at: null,
          acknowledged_by: null,
        },
        true,
      );
    },
  };
  const automations = automationsModule({
    db,
    log,
    guards,
    feed: deviceHub.feed,
    gate: deviceHub.gate,
    devices: deviceHub.devices,
    scenes: scenes.service,
    reach,
    users,
    notifier: automationNotifier,
    activity: activity.log,
    clock,
    timeZone: config.householdTimeZone,
    location: config.householdLocation,
    bus,
    topicPrefix: config.devicehubTopicPrefix,
  });
  const features: Module[] = [
    activity,
    // Its hooks see every request: a token in the address, on the accounts API, and each token call's entry.
    tokens,
    { name: 'mail', close: () => mailer.close() },
    clientConfigModule({ devicehub_topic_prefix: config.devicehubTopicPrefix }),
    accounts,
    picturesModule({ db, dataDir: config.dataDir, log, users, guards }),
    oidcModule({
      settings: config.oidc,
      publicUrl: config.publicUrl,
      db,
      log,
      users,
      sessions: accounts.sessions,
      guards,
      notify: accounts.notify,
      limit: limits.auth,
    }),
    usersModule({
      db,
      dialect: storage.dialect,
      users,
      guards,
      sessions: accounts.sessions,
      activity: activity.log,
      access: access.reset,
      revokeApiTokens: (userId) => tokens.revokeAllOf(userId),
    }),
    deviceHub,
    access,
    rooms,
    passes,
    { name: 'bus-probe', start: () => busProbe.start(), close: () => busProbe.close() },
    historyModule({
      db,
      log,
      guards,
      devices: deviceHub.feed,
      heartbeatMs: config.historyHeartbeatMs,
      retention: config.historyRetention,
      reach,
      activity: activity.log,
      ...(storage.sqliteFile ? { sqliteFile: storage.sqliteFile } : {}),
    }),
    // Device events: the hub's listeners exist once it is registered.
    { name: 'activity-devices', register: () => activity.listenTo(deviceHub.feed) },
    push,
    notifications,
    alerts,
    scenes,
    automations,
  ];
  const checks = (): HealthCheck[] => [
    { name: 'database', check: () => storage.ping().then(() => true) },
    { name: 'bus', check: () => bus.connected },
    ...features.flatMap((module) => (module.ready ? [{ name: module.name, check: module.ready }] : [])),
    { name: 'http', check: () => app.server.listening },
  ];
  const lifecycle = new Lifecycle(
    [
      ...features,
      healthModule(checks, () => busProbe.latest),
      webAppModule(options.webRoot ?? defaultWebRoot()),
    ],
    log,
  );

  try {
    await lifecycle.register(app);
    await lifecycle.start();
  } catch (error) {
    await app.close().catch(() => {});
    await bus.close().catch(() => {});
    await storage.close().catch(() => {});
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    config,
    log,
    storage,
    bus,
    users,
    sessions: accounts.sessions,
    auth: accounts.auth,
    activity: activity.log,
    alerts: { tick: () => alerts.tick(), sweep: () => notifications.sweep() },
    automations: { tick: () => automations.tick() },
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
        await lifecycle.close();
        await bus.close().catch((error) => log.warn({ err: error }, 'bus close failed'));
        await storage.close().catch((error) => log.warn({ err: error }, 'database close failed'));
      })();
      return closing;
    },
  };
}
