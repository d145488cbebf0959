import type { Device } from '@hearth/contracts';
import mqtt from 'mqtt';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import type { TestDatabase } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';
import { serviceUrl } from '../../test/services.js';
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
  token: (role: Role) => Promise<string>;
  list: () => Promise<Device[]>;
  /** Zigbee2MQTT publishes its device list; answers once the hub lists `count` devices. */
  publishDevicesAndWait(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A Hearth on the bus (embedded broker exposed on a port, or an external one) and a scripted Zigbee2MQTT. */
export async function startHousehold(
  database: TestDatabase,
  busUrl: string | undefined,
  ids = { base: '', prefix: '' },
) {
  const unique = crypto.randomUUID().slice(0, 8);
  const base = ids.base || `z2m-test-${unique}`;
  const prefix = ids.prefix || `hearth-test-${unique}`;
  const port = busUrl ? undefined : await freePort();
  const app = await startTestApp(database, {
    ZIGBEE2MQTT_BASE_TOPIC: base,
    DEVICEHUB_TOPIC_PREFIX: prefix,
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
    token,
    list: async () =>
      (
        await app.app.inject({
          url: '/api/devicehub/devices',
          headers: { authorization: `Bearer ${resident}` },
        })
      ).json(),
    publishDevicesAndWait: async (count) => {
      await z2m.publishDevices();
      await waitFor(async () => ((await household.list()).length === count ? true : undefined));
    },
    close: async () => {
      await household.z2m.close();
      await app.close();
    },
  };
  return { household, resident, base, prefix };
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
