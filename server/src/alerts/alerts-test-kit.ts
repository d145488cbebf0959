import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationPage, NotificationView } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { sqliteDatabase, type TestDatabase } from '../../test/databases.js';
import { FakeClock } from '../../test/fake-clock.js';
import { freePort } from '../../test/ports.js';
import { serviceUrl } from '../../test/services.js';
import { started } from '../../test/started.js';
import { waitFor } from '../../test/wait.js';
import type { NewUser, Role, UserRecord } from '../users/index.js';

// Test support for alerts (docs/alerts.md#tests): a Hearth on a bus with a scripted Zigbee2MQTT
// whose devices include a leak sensor and a plug, a clock the test moves, and a webhook catcher.

const TEST_BUS_LOGIN = {
  MQTT_LISTEN_USERNAME: 'zigbee2mqtt',
  MQTT_LISTEN_PASSWORD: 'test-bus-password',
} as const;

/** An Aqara water leak sensor (SJCGQ11LM) as Zigbee2MQTT lists it, under `name`. */
export function leakSensor(name: string, ieee: string): Record<string, unknown> {
  return {
    ieee_address: ieee,
    type: 'EndDevice',
    network_address: 4100,
    supported: true,
    disabled: false,
    friendly_name: name,
    manufacturer: 'LUMI',
    model_id: 'lumi.sensor_wleak.aq1',
    power_source: 'Battery',
    interview_completed: true,
    interviewing: false,
    definition: {
      model: 'SJCGQ11LM',
      vendor: 'Aqara',
      description: 'Water leak sensor',
      supports_ota: false,
      options: [],
      exposes: [
        {
          type: 'binary',
          name: 'water_leak',
          label: 'Water leak',
          property: 'water_leak',
          access: 1,
          value_on: true,
          value_off: false,
        },
        {
          type: 'binary',
          name: 'battery_low',
          label: 'Battery low',
          property: 'battery_low',
          access: 1,
          value_on: true,
          value_off: false,
        },
        {
          type: 'binary',
          name: 'tamper',
          label: 'Tamper',
          property: 'tamper',
          access: 1,
          value_on: true,
          value_off: false,
        },
        {
          type: 'numeric',
          name: 'battery',
          label: 'Battery',
          property: 'battery',
          access: 1,
          unit: '%',
          value_min: 0,
          value_max: 100,
        },
      ],
    },
  };
}

/** A smart plug (a router that reports availability), under `name`. */
export function plug(name: string, ieee: string): Record<string, unknown> {
  return {
    ieee_address: ieee,
    type: 'Router',
    network_address: 4200,
    supported: true,
    disabled: false,
    friendly_name: name,
    manufacturer: 'IKEA of Sweden',
    model_id: 'TRADFRI control outlet',
    power_source: 'Mains (single phase)',
    interview_completed: true,
    interviewing: false,
    definition: {
      model: 'E1603/E1702/E1708',
      vendor: 'IKEA',
      description: 'TRADFRI control outlet',
      supports_ota: true,
      options: [],
      exposes: [
        {
          type: 'switch',
          features: [
            {
              type: 'binary',
              name: 'state',
              label: 'State',
              property: 'state',
              access: 7,
              value_on: 'ON',
              value_off: 'OFF',
              value_toggle: 'TOGGLE',
            },
          ],
        },
      ],
    },
  };
}

/** The devices of an alerts household: a leak sensor per name and a plug per name. */
export function alertDevices(names: { leaks?: string[]; plugs?: string[] }) {
  return [
    ...(names.leaks ?? []).map((name, i) => leakSensor(name, `0x00158d00aa${String(i).padStart(6, '0')}`)),
    ...(names.plugs ?? []).map((name, i) => plug(name, `0x00158d00bb${String(i).padStart(6, '0')}`)),
  ];
}

/** The buses alert suites run on: the embedded broker, and Mosquitto when TEST_MQTT_URL is set. */
export function testBuses(): { name: string; url: string | undefined }[] {
  const mosquitto = serviceUrl('TEST_MQTT_URL');
  if (!mosquitto) console.warn('[skipped] alerts on an external broker: TEST_MQTT_URL is not set');
  return [
    { name: 'embedded broker', url: undefined },
    ...(mosquitto ? [{ name: `Mosquitto ${mosquitto}`, url: mosquitto }] : []),
  ];
}

/** Zigbee2MQTT as far as alerts need it: its device list, states, availability and bridge state. */
export class Zigbee2mqttScript {
  private constructor(
    readonly client: MqttClient,
    readonly base: string,
  ) {}

  static async connect(url: string, base: string) {
    const client = await mqtt.connectAsync(url, {
      clientId: `z2m-alerts-${crypto.randomUUID().slice(0, 8)}`,
      reconnectPeriod: 250,
    });
    return new Zigbee2mqttScript(client, base);
  }

  async publish(suffix: string, payload: unknown, retain = false) {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    await this.client.publishAsync(`${this.base}/${suffix}`, body, { retain });
  }

  /** Clears what it left retained on a shared broker. */
  async close() {
    if (this.client.disconnecting || this.client.disconnected) return;
    await this.publish('bridge/devices', '', true);
    await this.publish('bridge/state', '', true);
    await this.client.endAsync();
  }
}

/** Catches webhook POSTs: what arrived, and how it answers (a status, or never). */
export class WebhookCatcher {
  readonly received: { path: string; headers: http.IncomingHttpHeaders; body: string; at: number }[] = [];
  /** `hang`: never answers. */
  answer: number | 'hang' = 200;
  private server: http.Server | undefined;
  private readonly hanging = new Set<http.ServerResponse>();
  url = '';

  async start() {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        this.received.push({ path: request.url ?? '', headers: request.headers, body, at: Date.now() });
        if (this.answer === 'hang') this.hanging.add(response);
        else response.writeHead(this.answer).end();
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  to(path: string) {
    return this.received.filter((entry) => entry.path === path);
  }

  async stop() {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface AlertsHousehold {
  app: TestApp;
  z2m: Zigbee2mqttScript;
  clock: FakeClock;
  prefix: string;
  person(role: Role, fields?: Partial<NewUser>): Promise<{ user: UserRecord; token: string }>;
  call(
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads answers of every shape
  ): Promise<{ status: number; body: any }>;
  /** The hub's id of the device Zigbee2MQTT calls `name`. */
  idOf(name: string): Promise<string>;
  /** Zigbee2MQTT reports state of `name`. */
  report(name: string, state: Record<string, unknown>): Promise<void>;
  /** Zigbee2MQTT reports availability of `name`. */
  availability(name: string, online: boolean): Promise<void>;
  /**
   * Waits until the hub has taken the update (`check` on the device as the API lists it; at most
   * `timeoutMs`, default 5 s), then for the alert rules.
   */
  settle(
    name: string,
    check: (device: { online: boolean; state: Record<string, unknown> }) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Moves the clock and runs a beat of the rules and a delivery sweep. */
  advance(ms: number): Promise<void>;
  /** `token`'s notifications (status all). */
  inbox(token: string, query?: string): Promise<NotificationPage>;
  /** Waits until `token`'s inbox satisfies `check`. */
  inboxUntil(token: string, check: (page: NotificationPage) => boolean): Promise<NotificationPage>;
  close(): Promise<void>;
}

/** A Hearth with a scripted Zigbee2MQTT and `devices` listed, on the embedded broker or `busUrl`. */
export async function startAlertsHousehold(
  database: TestDatabase,
  busUrl: string | undefined,
  options: {
    devices: Record<string, unknown>[];
    clock?: FakeClock;
    env?: Record<string, string>;
    ids?: { base: string; prefix: string };
  },
): Promise<AlertsHousehold> {
  const unique = crypto.randomUUID().slice(0, 8);
  const base = options.ids?.base ?? `z2m-alerts-${unique}`;
  const prefix = options.ids?.prefix ?? `hearth-alerts-${unique}`;
  const clock = options.clock ?? new FakeClock();
  const port = busUrl ? undefined : await freePort();
  const app = await startTestApp(
    database,
    {
      ZIGBEE2MQTT_BASE_TOPIC: base,
      DEVICEHUB_TOPIC_PREFIX: prefix,
      HOUSEHOLD_TIME_ZONE: 'UTC',
      ...(busUrl ? { MQTT_URL: busUrl } : { MQTT_LISTEN_PORT: String(port), ...TEST_BUS_LOGIN }),
      ...options.env,
    },
    { clock },
  );
  const z2m = await Zigbee2mqttScript.connect(
    busUrl ??
      `mqtt://${TEST_BUS_LOGIN.MQTT_LISTEN_USERNAME}:${TEST_BUS_LOGIN.MQTT_LISTEN_PASSWORD}@127.0.0.1:${port}`,
    base,
  );
  const admin = await createUser(app, 'admin');
  const adminToken = await accessToken(app, admin);
  const call: AlertsHousehold['call'] = async (token, method, url, body) => {
    const response = await app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const listed = async () =>
    (await call(adminToken, 'GET', '/api/devicehub/devices')).body as {
      id: string;
      name: string;
      online: boolean;
      state: Record<string, unknown>;
    }[];
  await z2m.publish('bridge/devices', options.devices, true);
  await waitFor(async () => (await listed()).length === options.devices.length, 10_000);
  const inbox = async (token: string, query = '') =>
    (await call(token, 'GET', `/api/notifications${query}`)).body as NotificationPage;
  const household: AlertsHousehold = {
    app,
    z2m,
    clock,
    prefix,
    async person(role, fields) {
      const user = role === 'admin' && !fields ? admin : await createUser(app, role, fields);
      return { user, token: user === admin ? adminToken : await accessToken(app, user) };
    },
    call,
    async idOf(name) {
      const device = (await listed()).find((each) => each.name === name);
      if (!device) throw new Error(`no device ${name}`);
      return device.id;
    },
    report: async (name, state) => {
      await z2m.publish(name, state);
    },
    availability: async (name, online) => {
      await z2m.publish(`${name}/availability`, { state: online ? 'online' : 'offline' }, true);
    },
    async settle(name, check, timeoutMs) {
      await waitFor(async () => {
        const device = (await listed()).find((each) => each.name === name);
        return device !== undefined && check(device);
      }, timeoutMs);
      // The rules see the update as the hub takes it; one beat runs after what they noted.
      await app.alerts.tick();
      await app.alerts.sweep();
    },
    async advance(ms) {
      clock.advance(ms);
      await app.alerts.tick();
      await app.alerts.sweep();
    },
    inbox,
    inboxUntil: async (token, check) => {
      let last: NotificationPage | undefined;
      try {
        return await waitFor(async () => {
          last = await inbox(token);
          return check(last) ? last : undefined;
        });
      } catch (error) {
        throw new Error(`${(error as Error).message}: ${JSON.stringify(last)}`);
      }
    },
    close: async () => {
      await z2m.close();
      await app.close();
    },
  };
  return household;
}

/** One household per suite, like useHousehold(): started in beforeAll, closed in afterAll. */
export function useAlertsHousehold(options: {
  database?: () => Promise<TestDatabase>;
  bus?: string | undefined;
  devices: Record<string, unknown>[];
  env?: Record<string, string> | (() => Record<string, string>);
}): AlertsHousehold {
  let household: AlertsHousehold | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = options.database ? await options.database() : sqliteDatabase();
    const env = typeof options.env === 'function' ? options.env() : options.env;
    household = await startAlertsHousehold(database, options.bus, {
      devices: options.devices,
      ...(env ? { env } : {}),
    });
  });
  afterAll(async () => {
    await household?.close();
    await database?.drop();
  });
  const h = () => started(household, 'the alerts household');
  return {
    get app() {
      return h().app;
    },
    get z2m() {
      return h().z2m;
    },
    get clock() {
      return h().clock;
    },
    get prefix() {
      return h().prefix;
    },
    person: (...args) => h().person(...args),
    call: (...args) => h().call(...args),
    idOf: (name) => h().idOf(name),
    report: (...args) => h().report(...args),
    availability: (...args) => h().availability(...args),
    settle: (...args) => h().settle(...args),
    advance: (ms) => h().advance(ms),
    inbox: (...args) => h().inbox(...args),
    inboxUntil: (...args) => h().inboxUntil(...args),
    close: () => h().close(),
  };
}

/** The notification about the device of `id` of `kind`, if any. */
export const about = (page: NotificationPage, id: string, kind: NotificationView['kind']) =>
  page.notifications.filter((each) => each.device_id === id && each.kind === kind);
