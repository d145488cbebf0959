import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes';
import type { Logger } from 'pino';
import { keepRetainedInOrder } from './retained-order.js';

export interface BusCredentials {
  username: string;
  password: string;
}

/** The listener for other programs on the bus (Zigbee2MQTT): MQTT_LISTEN_* settings. */
export interface ExternalListener {
  host: string;
  /** Plain MQTT (mqtt://) on this port. */
  port?: number | undefined;
  /** MQTT over TLS (mqtts://) on this port, with this certificate and key (PEM). */
  tls?: { port: number; cert: string | Buffer; key: string | Buffer } | undefined;
  credentials: BusCredentials;
  /**
   * The topic trees the external user may publish and subscribe under (each root and everything
   * below it): Zigbee2MQTT's base topic and Home Assistant discovery. Nothing else.
   */
  topicRoots: string[];
}

export interface EmbeddedBrokerOptions {
  /** Hearth's own client; on a loopback port only this process is told about. */
  internal: BusCredentials;
  external?: ExternalListener | undefined;
  log: Logger;
}

export interface EmbeddedBroker {
  /** mqtt:// URL (without credentials) the hub's own client connects to. */
  url: string;
  /** What the hub's own client signs in with. */
  credentials: BusCredentials;
  /** The plain external port, when there is one. */
  port: number | undefined;
  /** The TLS external port, when there is one. */
  tlsPort: number | undefined;
  close(): Promise<void>;
}

const refusal = (message: string, returnCode: 4 | 5): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** Equal without telling by its timing how much of the secret matched. */
const sameSecret = (given: Buffer | string | undefined, expected: string) => {
  if (given === undefined) return false;
  const digest = (value: Buffer | string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
};

/**
 * Does a topic (or a subscription filter) stay inside one of the roots? Wildcards only below a
 * root. A root of "#" allows everything (the tests' stand-in for a plain broker).
 */
export function withinRoots(topic: string, roots: readonly string[]): boolean {
  return roots.some((root) => root === '#' || topic === root || topic.startsWith(`${root}/`));
}

/** Fresh credentials for a bus nobody outside this process needs to know (tests, and no DATA_DIR). */
export const generatedCredentials = (username = 'hearth'): BusCredentials => ({
  username,
  password: randomBytes(24).toString('base64url'),
});

type Role = 'internal' | 'external';

async function listen(server: net.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as net.AddressInfo).port;
}

const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * The bus when no MQTT_URL is configured: an Aedes broker. Hearth's own client connects on an
 * ephemeral loopback port with a secret of its own; with MQTT_LISTEN_PORT (and/or a TLS port) a
 * second listener on MQTT_LISTEN_HOST lets Zigbee2MQTT use Hearth as its only broker, with its
 * own user name and password and only under its topic roots. Every connection must sign in:
 * anonymous or wrong credentials are refused with CONNACK "not authorized".
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { internal, external, log } = options;
  // Which listener each connection came in on, and so whose credentials it may use.
  const listenerOf = new WeakMap<object, Role>();
  const roleOf = new WeakMap<Client, Role>();

  const broker = await Aedes.createBroker({
    drainTimeout: 10_000,
    authenticate: (client, username, password, done) => {
      const listener = listenerOf.get(client.conn);
      const expected =
        listener === 'internal' ? internal : listener === 'external' ? external?.credentials : undefined;
      if (!expected || username !== expected.username || !sameSecret(password, expected.password)) {
        log.info(
          { clientId: client.id, username: username ?? null, listener },
          username === undefined
            ? 'bus connection without credentials refused'
            : 'bus connection with wrong credentials refused',
        );
        // 5: "not authorized"; anonymous and wrong alike, so a guess learns nothing.
        return done(refusal('not authorized', 5), null);
      }
      roleOf.set(client, listener as Role);
      done(null, true);
    },
    authorizePublish: (client, packet: PublishPacket, done) => {
      if (!client || roleOf.get(client) === 'internal') return done(null);
      if (external && withinRoots(packet.topic, external.topicRoots)) return done(null);
      log.info(
        { clientId: client.id, topic: packet.topic },
        'bus client published outside its topics; disconnected',
      );
      // MQTT 3.1.1 can refuse a PUBLISH only by closing the connection.
      done(new Error('publishing is not allowed on this topic'));
    },
    authorizeSubscribe: (client, subscription: Subscription, done) => {
      if (roleOf.get(client) === 'internal') return done(null, subscription);
      if (external && withinRoots(subscription.topic, external.topicRoots)) return done(null, subscription);
      log.info(
        { clientId: client.id, topic: subscription.topic },
        'bus subscription outside its topics refused',
      );
      // A null subscription is answered with the failure code 0x80 in SUBACK; the client stays.
      done(null, null);
    },
  });
  keepRetainedInOrder(broker);
  broker.on('clientError', (client, error) => {
    log.debug({ clientId: client?.id, err: error.message }, 'bus client error');
  });

  const handle = (role: Role) => (socket: net.Socket) => {
    listenerOf.set(socket, role);
    broker.handle(socket);
  };
  const servers: net.Server[] = [];
  try {
    // No Nagle: a state message must not wait for the ACK of the previous one (up to 40 ms).
    const internalServer = net.createServer({ noDelay: true }, handle('internal'));
    servers.push(internalServer);
    const internalPort = await listen(internalServer, 0, '127.0.0.1');

    let port: number | undefined;
    let tlsPort: number | undefined;
    if (external?.port !== undefined) {
      const server = net.createServer({ noDelay: true }, handle('external'));
      servers.push(server);
      port = await listen(server, external.port, external.host);
      log.info({ port, host: external.host }, 'embedded MQTT broker listening');
    }
    if (external?.tls) {
      const server = tls.createServer(
        { cert: external.tls.cert, key: external.tls.key, noDelay: true },
        handle('external'),
      );
      servers.push(server);
      tlsPort = await listen(server, external.tls.port, external.host);
      log.info({ port: tlsPort, host: external.host, tls: true }, 'embedded MQTT broker listening');
    }
    return {
      url: `mqtt://127.0.0.1:${internalPort}`,
      credentials: internal,
      port,
      tlsPort,
      close: async () => {
        // server.close waits for sockets; broker.close ends them.
        const closed = Promise.all(servers.map(closeServer));
        broker.close(() => {});
        await closed;
      },
    };
  } catch (error) {
    await Promise.all(servers.filter((server) => server.listening).map(closeServer));
    broker.close(() => {});
    throw error;
  }
}
