import type { Device } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import type { TestDatabase } from '../../test/databases.js';
import { FakeClock } from '../../test/fake-clock.js';
import { freePort } from '../../test/ports.js';
import { serviceUrl } from '../../test/services.js';
import { waitFor } from '../../test/wait.js';
import type { Role, UserRecord } from '../users/index.js';

// Test support for automations and scenes: a Hearth with a fake clock on a bus, a scripted
// Zigbee2MQTT with a bathroom (humidity sensor, fan), the fixture's lamp and remote, and a
// restart that keeps the database (docs/automations.md#tests).

/** The credentials Zigbee2MQTT signs in to the embedded broker's listener with. */
const BUS_LOGIN = { MQTT_LISTEN_USERNAME: 'zigbee2mqtt', MQTT_LISTEN_PASSWORD: 'automations-test' } as const;

/** Zigbee2MQTT as these tests need it: its device list, state and availability, and the `/set` commands it gets. */
export class ScriptedZigbee2mqtt {
  devices: Record<string, unknown>[] = [];
  readonly sets: { name: string; payload: unknown }[] = [];

  private constructor(
    readonly client: MqttClient,
    readonly base: string,
  ) {}

  static async connect(url: string, base: string) {
    const client = await mqtt.connectAsync(url, {
      clientId: `z2m-auto-${crypto.randomUUID().slice(0, 8)}`,
      reconnectPeriod: 250,
    });
    const script = new ScriptedZigbee2mqtt(client, base);
    await client.subscribeAsync([`${base}/+/set`, `${base}/+/+/set`]);
    client.on('message', (topic, payload) => {
      script.sets.push({
        name: topic.slice(base.length + 1, -'/set'.length),
        payload: JSON.parse(payload.toString()),
      });
    });
    return script;
  }

  publish(suffix: string, payload: unknown, retain = false) {
    return this.client.publishAsync(`${this.base}/${suffix}`, JSON.stringify(payload), { retain });
  }

  publishDevices() {
    return this.publish('bridge/devices', this.devices, true);
  }

  /** Clears what it left retained on a shared broker. */
  async close() {
    if (this.client.disconnected) return;
    await this.client.publishAsync(`${this.base}/bridge/devices`, '', { retain: true });
    await this.client.endAsync();
  }
}

const binary = (property: string) => ({
  type: 'binary',
  name: property,
  property,
  access: 7,
  value_on: 'ON',
  value_off: 'OFF',
  value_toggle: 'TOGGLE',
});

/** A plug or fan in Zigbee2MQTT's own format. */
export const plug = (name: string, ieee: string) => ({
  ieee_address: ieee,
  type: 'Router',
  friendly_name: name,
  supported: true,
  interview_completed: true,
  definition: {
    model: 'TS011F',
    vendor: 'Tuya',
    description: 'Smart plug',
    exposes: [{ type: 'switch', features: [binary('state')] }],
  },
});

/** A humidity and temperature sensor in Zigbee2MQTT's own format. */
export const humiditySensor = (name: string, ieee: string) => ({
  ieee_address: ieee,
  type: 'EndDevice',
  friendly_name: name,
  supported: true,
  interview_completed: true,
  definition: {
    model: 'WSDCGQ11LM',
    vendor: 'Aqara',
    description: 'Temperature, humidity and pressure sensor',
    exposes: [
      { type: 'numeric', name: 'humidity', property: 'humidity', access: 1, unit: '%' },
      { type: 'numeric', name: 'temperature', property: 'temperature', access: 1, unit: '°C' },
    ],
  },
});

/** A dimmable lamp in Zigbee2MQTT's own format. */
export const lamp = (name: string, ieee: string) => ({
  ieee_address: ieee,
  type: 'Router',
  friendly_name: name,
  supported: true,
  interview_completed: true,
  definition: {
    model: 'LED1836G9',
    vendor: 'IKEA',
    description: 'TRADFRI bulb E27 WW 806 lumen',
    exposes: [
      {
        type: 'light',
        features: [
          binary('state'),
          {
            type: 'numeric',
            name: 'brightness',
            property: 'brightness',
            access: 7,
            value_min: 0,
            value_max: 254,
          },
        ],
      },
    ],
  },
});

/** A remote that reports button presses as `action`. */
export const remote = (name: string, ieee: string) => ({
  ieee_address: ieee,
  type: 'EndDevice',
  friendly_name: name,
  supported: true,
  interview_completed: true,
  definition: {
    model: 'E1524/E1810',
    vendor: 'IKEA',
    description: 'TRADFRI remote control',
    exposes: [
      {
        type: 'enum',
        name: 'action',
        property: 'action',
        access: 1,
        values: ['toggle', 'on', 'off', 'brightness_up_click'],
      },
      { type: 'numeric', name: 'battery', property: 'battery', access: 1, unit: '%' },
    ],
  },
});

export const KIT_DEVICES = () => [
  lamp('Living room/Lamp', '0x00158d0001aa0003'),
  remote('Kitchen remote', '0x00158d0001aa0004'),
  humiditySensor('Bathroom sensor', '0x00158d0001aa0001'),
  plug('Bathroom fan', '0x00158d0001aa0002'),
];

export interface AutomationKit {
  app: TestApp;
  clock: FakeClock;
  z2m: ScriptedZigbee2mqtt;
  admin: UserRecord;
  resident: UserRecord;
  /** DEVICEHUB_TOPIC_PREFIX of this household. */
  prefix: string;
  /** A device the hub lists, by its Zigbee2MQTT name. */
  device(name: string): Device;
  call(
    user: UserRecord,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads answers of every shape
  ): Promise<{ status: number; body: any }>;
  user(role: Role): Promise<UserRecord>;
  /** Zigbee2MQTT reports state; resolves once the hub has it. */
  report(name: string, state: Record<string, unknown>): Promise<void>;
  /** One beat of the scheduler, and what it started settled. */
  tick(): Promise<void>;
  /** `/set` commands Zigbee2MQTT got for a device so far. */
  sets(name: string): unknown[];
  /** Closes the app (the database stays) and starts another on it, as a restart does. */
  restart(): Promise<void>;
  /** Another instance on the same database and bus, with the same clock (closed by the caller). */
  another(): Promise<TestApp>;
  close(): Promise<void>;
}

/** A household for automation tests on `database`, its clock at `at`. */
export async function startAutomationKit(
  database: TestDatabase,
  options: { at?: string; env?: Record<string, string>; devices?: Record<string, unknown>[] } = {},
): Promise<AutomationKit> {
  const clock = new FakeClock(Date.parse(options.at ?? '2026-06-01T10:00:00Z'));
  const unique = crypto.randomUUID().slice(0, 8);
  const base = `z2m-auto-${unique}`;
  const busUrl = serviceUrl('TEST_MQTT_URL');
  const port = busUrl ? undefined : await freePort();
  const env = {
    ZIGBEE2MQTT_BASE_TOPIC: base,
    DEVICEHUB_TOPIC_PREFIX: `hearth-auto-${unique}`,
    HA_DISCOVERY_PREFIX: `ha-auto-${unique}`,
    HOUSEHOLD_TIME_ZONE: 'Europe/Berlin',
    HOUSEHOLD_LATITUDE: '52.52',
    HOUSEHOLD_LONGITUDE: '13.405',
    ...(busUrl ? { MQTT_URL: busUrl } : { MQTT_LISTEN_PORT: String(port), ...BUS_LOGIN }),
    ...options.env,
  };
  const devices = options.devices ?? KIT_DEVICES();
  let app = await startTestApp(database, env, { clock });
  const z2m = await ScriptedZigbee2mqtt.connect(
    busUrl ?? `mqtt://${BUS_LOGIN.MQTT_LISTEN_USERNAME}:${BUS_LOGIN.MQTT_LISTEN_PASSWORD}@127.0.0.1:${port}`,
    base,
  );
  z2m.devices = devices;
  const listed = devices.length;
  let hub: Device[] = [];
  const admin = await createUser(app, 'admin');
  const resident = await createUser(app, 'resident');
  const call: AutomationKit['call'] = async (user, method, url, body) => {
    const response = await app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await accessToken(app, user)}` },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const list = async () => {
    await waitFor(async () => z2m.client.connected || undefined, 10_000);
    await z2m.publishDevices();
    hub = await waitFor(async () => {
      const found = (await call(admin, 'GET', '/api/devicehub/devices')).body as Device[];
      return found.length === listed ? found : undefined;
    }, 10_000);
  };
  await list();
  const byName = (name: string) => {
    const found = hub.find((each) => each.name === name);
    if (!found) throw new Error(`no device named ${name}`);
    return found;
  };
  return {
    get app() {
      return app;
    },
    clock,
    z2m,
    admin,
    resident,
    prefix: env.DEVICEHUB_TOPIC_PREFIX,
    device: byName,
    call,
    user: (role) => createUser(app, role),
    async report(name, state) {
      const id = byName(name).id;
      await z2m.publish(name, state);
      await waitFor(async () => {
        const found = ((await call(admin, 'GET', `/api/devicehub/devices?ids=${id}`)).body as Device[])[0];
        return found && Object.entries(state).every(([key, value]) => found.state[key] === value);
      });
    },
    tick: () => app.automations.tick(),
    sets: (name) => z2m.sets.filter((each) => each.name === name).map((each) => each.payload),
    another: () => startTestApp(database, env, { clock }),
    async restart() {
      await app.close();
      app = await startTestApp(database, env, { clock });
      await list();
    },
    async close() {
      await z2m.close();
      await app.close();
    },
  };
}
