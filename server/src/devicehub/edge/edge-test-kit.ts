// Test support for the edge broker: a listening test app with an edge broker on its own path,
// users of each role, and MQTT.js / raw WebSocket clients against it.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { WebSocket } from 'ws';
import { accessToken, createUser, startTestApp, type TestApp } from '../../../test/app.js';
import type { TestDatabase } from '../../../test/databases.js';
import type { Role, UserRecord } from '../../users/index.js';
import { createEdgeBroker, type EdgeBroker } from './edge-broker.js';
import type { EdgeLimits } from './edge-limits.js';

// Its own path, so it never meets the edge broker the device hub itself starts on /ws/devicehub.
export const TEST_PATH = '/ws/devicehub-under-test';
export const P = 'hearth/devicehub';

export interface EdgeHarness {
  app: TestApp;
  edge: EdgeBroker;
  url: string;
  origin: string;
  user(role: Role): Promise<{ record: UserRecord; token: string }>;
  /** Connects MQTT.js; resolves with the client or the error/close that ended the attempt. */
  connect(options?: ClientOptions): Promise<MqttClient>;
  attempt(options?: ClientOptions): Promise<{ client?: MqttClient; error?: Error }>;
  /** A raw WebSocket with the mqtt subprotocol; resolves when open or with the HTTP status. */
  rawSocket(headers?: Record<string, string>): Promise<{ socket?: WebSocket; status?: number }>;
  close(): Promise<void>;
}

export interface ClientOptions extends Partial<IClientOptions> {
  token?: string;
  cookie?: string;
  origin?: string;
}

export async function startEdgeHarness(
  database: TestDatabase,
  limits: Partial<EdgeLimits> = {},
): Promise<EdgeHarness> {
  const app = await startTestApp(database);
  const edge = await createEdgeBroker(
    app.app,
    {
      auth: app.auth,
      publicUrl: app.config.publicUrl,
      topicPrefix: app.config.devicehubTopicPrefix,
      db: app.storage.db,
      log: app.log,
    },
    { path: TEST_PATH, ...limits },
  );
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = address.replace('localhost', '127.0.0.1');
  const url = `${origin.replace(/^http/, 'ws')}${TEST_PATH}`;
  const clients: MqttClient[] = [];
  const sockets: WebSocket[] = [];
  let counter = 0;

  const attempt = (options: ClientOptions = {}) =>
    new Promise<{ client?: MqttClient; error?: Error }>((resolve) => {
      const { token, cookie, origin: pageOrigin, ...rest } = options;
      const headers: Record<string, string> = {};
      if (cookie) headers.Cookie = `auth_token=${cookie}`;
      if (pageOrigin) headers.Origin = pageOrigin;
      const client = mqtt.connect(url, {
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        clientId: `rt-${Date.now()}-${counter++}`,
        ...(token ? { username: 'browser', password: token } : {}),
        wsOptions: { headers },
        ...rest,
      });
      clients.push(client);
      client.once('connect', () => resolve({ client }));
      client.once('error', (error) => resolve({ error }));
      client.once('close', () => resolve({ error: new Error('closed before CONNACK') }));
    });

  return {
    app,
    edge,
    url,
    origin,
    async user(role) {
      const n = ++counter;
      const record = await createUser(app, role, { userName: `${role}${n}`, emailConfirmed: true });
      return { record, token: await accessToken(app, record) };
    },
    attempt,
    async connect(options) {
      const result = await attempt(options);
      if (!result.client) throw result.error;
      return result.client;
    },
    rawSocket: (headers = {}) =>
      new Promise((resolve) => {
        const socket = new WebSocket(url, 'mqtt', { headers });
        sockets.push(socket);
        socket.once('open', () => resolve({ socket }));
        socket.once('unexpected-response', (_request, response) =>
          resolve({ status: response.statusCode ?? 0 }),
        );
        socket.once('error', () => resolve({ status: 0 }));
      }),
    async close() {
      for (const client of clients) client.end(true);
      for (const socket of sockets) socket.terminate();
      await edge.close();
      await app.close();
      await database.drop();
    },
  };
}

/** Resolves when the client's connection ends (or rejects after `ms`). */
export const closed = (client: MqttClient, ms = 5000) =>
  new Promise<void>((resolve, reject) => {
    if (!client.connected && client.disconnected) return resolve();
    const timer = setTimeout(() => reject(new Error('connection still open')), ms);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Collects the messages a client receives. */
export function inbox(client: MqttClient) {
  const messages: { topic: string; payload: string; retain: boolean }[] = [];
  client.on('message', (topic, payload, packet) =>
    messages.push({ topic, payload: payload.toString(), retain: packet.retain }),
  );
  return messages;
}

export async function eventually(check: () => boolean, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Hand-made MQTT 3.1.1 packets for the raw-socket tests (a client that stops reading). */
export const rawPackets = {
  connect(clientId: string, password: string) {
    const flags = 0x80 | 0x40 | 0x02; // username, password, clean session
    return packet(
      0x10,
      Buffer.concat([
        str('MQTT'),
        Buffer.from([4, flags, 0, 60]),
        str(clientId),
        str('browser'),
        str(password),
      ]),
    );
  },
  subscribe(id: number, filter: string) {
    return packet(0x82, Buffer.concat([Buffer.from([id >> 8, id & 0xff]), str(filter), Buffer.from([0])]));
  },
};

function str(value: string) {
  const bytes = Buffer.from(value);
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

function packet(type: number, body: Buffer) {
  const length: number[] = [];
  let n = body.length;
  do {
    let digit = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) digit |= 0x80;
    length.push(digit);
  } while (n > 0);
  return Buffer.concat([Buffer.from([type, ...length]), body]);
}
