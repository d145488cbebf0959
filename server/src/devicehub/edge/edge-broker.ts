import { Aedes } from 'aedes';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { TokenReader } from '../../accounts/index.js';
import type { Database } from '../../storage/schema.js';
import type { UserRecord } from '../../users/index.js';
import { aclHooks } from './edge-acl.js';
import { checkUpgrade } from './edge-auth.js';
import { connectHooks } from './edge-connect.js';
import { DEFAULT_EDGE_LIMITS, type EdgeLimits } from './edge-limits.js';
import { EdgeTopics } from './edge-topics.js';
import { listenForUpgrades } from './edge-upgrade.js';
import { encodePublish } from './publish-packet.js';
import { startUserRecheck } from './user-recheck.js';
import { type ConnectionSession, WebSocketTransport } from './ws-transport.js';

/** A command a browser published on P/commands/device.set or P/commands/device.rename. */
export type EdgeCommand =
  | { kind: 'device.set'; payload: unknown }
  | { kind: 'device.rename'; payload: unknown };

interface RetainedStore {
  storeRetained(packet: Record<string, unknown>): Promise<void>;
}

export type EdgeCommandHandler = (command: EdgeCommand, user: UserRecord) => void | Promise<void>;

/** What the edge broker needs: who is behind a token, the public origin, and where users are. */
export interface EdgeBrokerDeps {
  auth: TokenReader;
  publicUrl: string;
  /** DEVICEHUB_TOPIC_PREFIX */
  topicPrefix: string;
  db: Kysely<Database>;
  log: Logger;
}

/**
 * The MQTT-over-WebSocket broker browsers connect to at /ws/devicehub (DESIGN.md "Device hub").
 * Topics passed to publish() are relative to P = `${DEVICEHUB_TOPIC_PREFIX}/devicehub`, e.g.
 * `devices/<id>` or `events/device.upsert`.
 */
export interface EdgeBroker {
  /**
   * A function as the payload is called only when the message goes somewhere: a browser is
   * subscribed, or it is retained (2000 devices' upserts with nobody watching cost no JSON).
   */
  publish(
    topic: string,
    payload: string | Buffer | (() => string),
    options?: { retain?: boolean },
  ): Promise<void>;
  /** Handles commands browsers publish; the user is the signed-in resident/admin who sent it. */
  onCommand(handler: EdgeCommandHandler): void;
  /** Number of connected browser clients. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Starts the edge broker: a separate Aedes instance (browsers never see the bus) on WebSocket
 * upgrades of the app's HTTP server. Call it before the app is ready, so that it closes with the
 * app; `limits` shortens time-outs in tests.
 */
export async function createEdgeBroker(
  app: FastifyInstance,
  deps: EdgeBrokerDeps,
  limits: Partial<EdgeLimits> = {},
): Promise<EdgeBroker> {
  const settings = { ...DEFAULT_EDGE_LIMITS, ...limits };
  const log = deps.log.child({ component: 'edge-broker' });
  const topics = new EdgeTopics(deps.topicPrefix);
  const handlers: EdgeCommandHandler[] = [];

  const dispatch = (command: EdgeCommand, user: UserRecord) => {
    for (const handler of handlers) {
      Promise.resolve()
        .then(() => handler(command, user))
        .catch((error: unknown) =>
          log.error({ err: error, kind: command.kind }, 'device command handler failed'),
        );
    }
  };

  const aedes = await Aedes.createBroker({
    connectTimeout: settings.connectTimeoutMs,
    maxTopicLevels: settings.maxTopicLevels,
    drainTimeout: settings.drainTimeoutMs,
    ...connectHooks({ auth: deps.auth, log }),
    ...aclHooks({ topics, log, onCommand: dispatch }),
  });
  aedes.on('clientError', (client, error) =>
    log.debug({ clientId: client?.id, err: error.message }, 'browser client error'),
  );
  aedes.on('connectionError', (client, error) =>
    log.debug({ clientId: client?.id, err: error.message }, 'browser connection refused'),
  );

  const transportOf = new WeakMap<WebSocket, WebSocketTransport>();
  // Browsers whose MQTT session is established: the hub's messages go straight to them.
  const live = new Set<WebSocketTransport>();
  aedes.on('clientReady', (client) => {
    const transport = client.conn as unknown as WebSocketTransport;
    transport.session.client = client as unknown as ConnectionSession['client'];
    if (!transport.destroyed) live.add(transport);
  });
  const persistence = (aedes as unknown as { persistence: RetainedStore }).persistence;
  const parseCookie = (header: string) => app.parseCookie(header) as Record<string, string | undefined>;
  const upgrades = listenForUpgrades({
    server: app.server,
    path: settings.path,
    // One frame may hold one packet of the largest size plus the WebSocket's own framing slack.
    maxPayload: settings.maxPacketBytes + 1024,
    log,
    check: (request) => checkUpgrade(request, { auth: deps.auth, publicUrl: deps.publicUrl, parseCookie }),
    onSocket: (socket, request, verdict) => {
      const transport = new WebSocketTransport(
        socket,
        { cookieUser: verdict.cookieUser, cookieToken: verdict.cookieToken },
        {
          maxPacketBytes: settings.maxPacketBytes,
          maxQueuedBytes: settings.maxQueuedBytes,
          slowConsumerMs: settings.slowConsumerMs,
          maxPendingBytes: settings.maxPendingBytes,
          onDrop: (reason) =>
            log.info({ userId: transport.session.user?.id, reason }, 'browser connection dropped'),
        },
      );
      transportOf.set(socket, transport);
      transport.once('close', () => live.delete(transport));
      aedes.handle(transport, request);
    },
  });

  const recheck = startUserRecheck({
    db: deps.db,
    intervalMs: settings.recheckIntervalMs,
    log,
    sessionsEnded: (tokens) => deps.auth.sessionsEnded(tokens),
    connections: () =>
      [...upgrades.sockets()].flatMap((socket) => {
        const transport = transportOf.get(socket);
        const userId = transport?.session.user?.id;
        const token = transport?.session.token;
        return transport && userId
          ? [
              {
                userId,
                ...(token ? { token } : {}),
                close: (reason: string) => {
                  log.info({ userId, reason }, 'closing browser connection');
                  transport.destroy();
                },
              },
            ]
          : [];
      }),
  });

  // A session ended on this instance: its streams close now, not at the next interval.
  const stopListening = deps.auth.onSessionsEnded(() => void recheck.runOnce());

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopListening();
      recheck.stop();
      const sockets = [...upgrades.sockets()];
      upgrades.stop();
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === socket.CLOSED) return resolve();
              socket.once('close', () => resolve());
              socket.close(1001, 'server shutting down');
              setTimeout(() => socket.terminate(), 500).unref();
            }),
        ),
      );
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    })();
    return closing;
  };

  try {
    // Upgraded sockets would otherwise hold the HTTP server's close open.
    app.addHook('preClose', close);
  } catch {
    log.debug('edge broker created after the app started; its owner closes it');
  }

  return {
    // The hub's messages bypass Aedes' per-subscriber path (a packet object, a timer tick and a
    // re-encoding for every browser): encoded once, the same bytes go to every subscriber.
    // Retained state is stored in Aedes, which replays it to late subscribers.
    async publish(topic, payload, options = {}) {
      const absolute = topics.absolute(topic);
      if (!topics.mayDeliver(absolute)) throw new Error(`browsers may not receive "${topic}"`);
      const receivers: WebSocketTransport[] = [];
      for (const transport of live) if (transport.subscribedTo(absolute)) receivers.push(transport);
      if (receivers.length === 0 && !options.retain) return;
      const text = typeof payload === 'function' ? payload() : payload;
      const body = typeof text === 'string' ? Buffer.from(text) : text;
      if (receivers.length > 0) {
        const packet = encodePublish(absolute, body);
        for (const transport of receivers) transport.writePacket(packet);
      }
      if (options.retain) {
        await persistence.storeRetained({
          cmd: 'publish',
          topic: absolute,
          payload: body,
          qos: 0,
          retain: true,
          dup: false,
          brokerId: aedes.id,
          brokerCounter: 0,
        });
      }
    },
    onCommand: (handler) => {
      handlers.push(handler);
    },
    connections: () => aedes.connectedClients,
    close,
  };
}
