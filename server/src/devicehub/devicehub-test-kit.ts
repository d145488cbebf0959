import type { Device } from '@hearth/contracts';
import type { LightMyRequestResponse } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { sqliteDatabase, type TestDatabase } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';
import { serviceUrl } from '../../test/services.js';
import { started } from '../../test/started.js';
import { waitFor } from '../../test/wait.js';
import type { Role } from '../users/index.js';
import { ScriptedZigbee2mqtt } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';

// Test support for the device hub: a Hearth on a bus with a scripted Zigbee2MQTT beside it.

export { freePort, waitFor };

/** The credentials the scripted Zigbee2MQTT signs in to the embedded broker's listener with. */
export const TEST_BUS_LOGIN = {
  MQTT_LISTEN_USERNAME: 'zigbee2mqtt',
  MQTT_LISTEN_PASSWORD: 'test-bus-password',
} as const;

export interface Household {
  app: TestApp;
  z2m: ScriptedZigbee2mqtt;
  /** A resident's access token (the one `list`, `call` and `command` use unless given another). */
  resident: string;
  /** The hub's topic prefix (DEVICEHUB_TOPIC_PREFIX), unique to this household. */
  prefix: string;
  /** Home Assistant discovery's prefix (HA_DISCOVERY_PREFIX), unique to this household. */
  haPrefix: string;
  /** Tasmota discovery's prefix (TASMOTA_DISCOVERY_PREFIX), unique to this household. */
  tasmotaPrefix: string;
  /** Where this household's Shelly devices are: `<shellyRoot>/<device prefix>` (SHELLY_TOPIC_PREFIXES `<shellyRoot>/+`). */
  shellyRoot: string;
  token: (role: Role) => Promise<string>;
  list: () => Promise<Device[]>;
  /** An API call with a bearer token (the resident's unless given). */
  call(
    method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<LightMyRequestResponse>;
  /** POST /api/devicehub/devices/:id/commands. */
  command(deviceId: string, body: unknown, token?: string): Promise<LightMyRequestResponse>;
  /** Zigbee2MQTT publishes its device list; answers once the hub lists `count` devices. */
  publishDevicesAndWait(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A Hearth on the bus (embedded broker exposed on a port, or an external one) and a scripted Zigbee2MQTT. */
export async function startHousehold(
  database: TestDatabase,
  busUrl: string | undefined,
  ids: { base: string; prefix: string; haPrefix?: string } = { base: '', prefix: '' },
) {
  const unique = crypto.randomUUID().slice(0, 8);
  const base = ids.base || `z2m-test-${unique}`;
  const prefix = ids.prefix || `hearth-test-${unique}`;
  // Its own discovery prefix too: what others left retained on a shared broker stays out of it.
  const haPrefix = ids.haPrefix || `ha-test-${unique}`;
  const tasmotaPrefix = `tasmota-test-${unique}/discovery`;
  const shellyRoot = `shelly-test-${unique}`;
  const port = busUrl ? undefined : await freePort();
  const app = await startTestApp(database, {
    ZIGBEE2MQTT_BASE_TOPIC: base,
    DEVICEHUB_TOPIC_PREFIX: prefix,
    HA_DISCOVERY_PREFIX: haPrefix,
    TASMOTA_DISCOVERY_PREFIX: tasmotaPrefix,
    SHELLY_TOPIC_PREFIXES: `${shellyRoot}/+`,
    ...(busUrl ? { MQTT_URL: busUrl } : { MQTT_LISTEN_PORT: String(port), ...TEST_BUS_LOGIN }),
  });
  const z2m = await ScriptedZigbee2mqtt.connect(
    busUrl ??
      `mqtt://${TEST_BUS_LOGIN.MQTT_LISTEN_USERNAME}:${TEST_BUS_LOGIN.MQTT_LISTEN_PASSWORD}@127.0.0.1:${port}`,
    base,
  );
  let counter = 0;
  const token = async (role: Role) => {
    const n = `${role}${++counter}${unique}`;
    return accessToken(app, await createUser(app, role, { email: `${n}@example.com`, userName: n }));
  };
  const resident = await token('resident');
  const household: Household = {
    app,
    z2m,
    resident,
    prefix,
    haPrefix,
    tasmotaPrefix,
    shellyRoot,
    token,
    list: async () => (await household.call('GET', '/api/devicehub/devices')).json(),
    call: (method, url, body, as = resident) =>
      app.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${as}` },
        ...(body !== undefined ? { payload: body as object } : {}),
      }),
    command: (deviceId, body, as) =>
      household.call('POST', `/api/devicehub/devices/${deviceId}/commands`, body, as),
    publishDevicesAndWait: async (count) => {
      await z2m.publishDevices();
      await waitFor(async () => ((await household.list()).length === count ? true : undefined));
    },
    close: async () => {
      await household.z2m.close();
      await app.close();
    },
  };
  return { household, resident, base, prefix, haPrefix };
}

export interface UseHouseholdOptions {
  /** The bus (an external broker's URL); the embedded broker, exposed on a port, when not given. */
  bus?: string;
  /** The database; a fresh SQLite file when not given. */
  database?: () => Promise<TestDatabase>;
  /** What Zigbee2MQTT publishes as bridge/devices (its usual four and a coordinator when not given). */
  devices?: Record<string, unknown>[];
  /** How many devices the hub lists from them (4 for the usual ones; all of `devices` when given). */
  listed?: number;
  /** Listen on a port for browsers; the stream's ws:// URL is `wsUrl`. */
  browsers?: boolean;
}

/** A shared household, closed by its fixture (so no `close` of its own). */
export interface HouseholdFixture extends Omit<Household, 'close'> {
  readonly wsUrl: string;
}

/**
 * The household a device hub suite shares, like useTestApp(): started in beforeAll with its device
 * list published and listed, closed and its database dropped in afterAll. Its members are there
 * from beforeAll on; a suite's own hooks registered after this call run after it starts and before
 * it closes.
 */
export function useHousehold(options: UseHouseholdOptions = {}): HouseholdFixture {
  let household: Household | undefined;
  let database: TestDatabase | undefined;
  let wsUrl: string | undefined;
  beforeAll(async () => {
    database = options.database ? await options.database() : sqliteDatabase();
    ({ household } = await startHousehold(database, options.bus));
    if (options.devices) household.z2m.devices = options.devices;
    await household.publishDevicesAndWait(options.listed ?? options.devices?.length ?? 4);
    if (options.browsers) wsUrl = await listenForBrowsers(household.app);
  });
  afterAll(async () => {
    await household?.close();
    await database?.drop();
  });
  const h = () => started(household, "the household's hub");
  return {
    get wsUrl() {
      return started(wsUrl, "the household's stream (ask for browsers: true)");
    },
    get app() {
      return h().app;
    },
    get z2m() {
      return h().z2m;
    },
    get resident() {
      return h().resident;
    },
    get prefix() {
      return h().prefix;
    },
    get haPrefix() {
      return h().haPrefix;
    },
    get tasmotaPrefix() {
      return h().tasmotaPrefix;
    },
    get shellyRoot() {
      return h().shellyRoot;
    },
    token: (role) => h().token(role),
    list: () => h().list(),
    call: (...args) => h().call(...args),
    command: (...args) => h().command(...args),
    publishDevicesAndWait: (count) => h().publishDevicesAndWait(count),
  };
}

export interface StreamMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

/**
 * A browser on the device stream: MQTT.js over /ws/devicehub of a listening app (docs/devicehub.md#stream),
 * subscribed to every device and event topic like the Devices page, collecting what arrives.
 */
export async function streamClient(wsUrl: string, token: string, prefix: string) {
  const client = await mqtt.connectAsync(wsUrl, {
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
    clientId: `rt-${Date.now()}-${Math.floor(Math.random() * 1000)}`,
    username: 'browser',
    password: token,
  });
  const messages: StreamMessage[] = [];
  client.on('message', (topic, payload, packet) =>
    messages.push({ topic, payload: payload.toString(), retain: packet.retain }),
  );
  await client.subscribeAsync([`${prefix}/devicehub/devices/#`, `${prefix}/devicehub/events/#`], { qos: 0 });
  return { client, messages };
}

/** Listens on a free loopback port; resolves with the stream's ws:// URL. */
export async function listenForBrowsers(app: TestApp): Promise<string> {
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  return `${address.replace(/^http/, 'ws')}/ws/devicehub`;
}

export const byName = (devices: Device[], name: string) => devices.find((d) => d.name === name);

/** The buses every device hub suite runs on: the embedded broker, and Mosquitto when TEST_MQTT_URL is set. */
export function testBuses(): { name: string; url: string | undefined }[] {
  const mosquitto = serviceUrl('TEST_MQTT_URL');
  if (!mosquitto) console.warn('[skipped] device hub on an external broker: TEST_MQTT_URL is not set');
  return [
    { name: 'embedded broker', url: undefined },
    ...(mosquitto ? [{ name: `Mosquitto ${mosquitto}`, url: mosquitto }] : []),
  ];
}
