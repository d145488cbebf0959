// A browser's view of the device stream (/ws/devicehub over MQTT.js), for access tests: which devices
// it has been told of, their state and access, and the replies to its commands.
import type { Device, DeviceRemovedEvent, StreamRefusal } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { UserRecord } from '../src/users/index.js';
import { type TestContext, useTestApp } from './app.js';
import type { TestDatabase } from './databases.js';

/**
 * A suite's Hearth with the simulator's first `devices` devices, its stream under a topic prefix of
 * its own (`hearth-<name>-…`), so suites running at once never see each other's messages.
 */
export function useStreamTestApp(
  database: () => Promise<TestDatabase>,
  devices: number,
  name: string,
): { t: TestContext; prefix: string } {
  const prefix = `hearth-${name}-${crypto.randomUUID().slice(0, 8)}`;
  const t = useTestApp({
    database,
    env: { SIMULATOR: 'on', SIMULATOR_DEVICES: String(devices), DEVICEHUB_TOPIC_PREFIX: prefix },
  });
  return { t, prefix };
}

/** The devices `admin` lists, once all `count` simulated ones are there. */
export const simulatedDevices = (t: TestContext, admin: UserRecord, count: number): Promise<Device[]> =>
  eventually(async () => {
    const all: Device[] = (await t.call(admin, 'GET', '/api/devicehub/devices')).body;
    return all.length === count && all;
  });

export interface StreamView {
  client: MqttClient;
  clientId: string;
  /** Devices told of (an upsert or a state) and not removed since, with the last `access` seen. */
  devices: Map<string, { access?: string | undefined; state?: unknown }>;
  refusals: StreamRefusal[];
  messages: { topic: string; payload: string }[];
  publish(kind: 'device.set' | 'device.rename', payload: unknown): Promise<void>;
  end(): void;
}

/** Connects like a browser (token as MQTT password), subscribes to devices, events and its replies. */
export async function openStream(origin: string, prefix: string, token: string): Promise<StreamView> {
  const clientId = `access-${crypto.randomUUID().slice(0, 8)}`;
  const client = await mqtt.connectAsync(`${origin.replace(/^http/, 'ws')}/ws/devicehub`, {
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
    clientId,
    username: 'browser',
    password: token,
  });
  const P = `${prefix}/devicehub`;
  const view: StreamView = {
    client,
    clientId,
    devices: new Map(),
    refusals: [],
    messages: [],
    publish: async (kind, payload) => {
      await client.publishAsync(`${P}/commands/${kind}`, JSON.stringify(payload));
    },
    end: () => client.end(true),
  };
  client.on('message', (topic, buffer) => {
    const payload = buffer.toString();
    view.messages.push({ topic, payload });
    if (topic.startsWith(`${P}/devices/`)) {
      const id = topic.slice(`${P}/devices/`.length);
      if (payload === '') return;
      view.devices.set(id, { ...view.devices.get(id), state: JSON.parse(payload) });
    } else if (topic === `${P}/events/device.upsert`) {
      const device = JSON.parse(payload) as Device;
      view.devices.set(device.id, { ...view.devices.get(device.id), access: device.access });
    } else if (topic === `${P}/events/device.removed`) {
      view.devices.delete((JSON.parse(payload) as DeviceRemovedEvent).id);
    } else if (topic === `${P}/replies/${clientId}`) {
      view.refusals.push(JSON.parse(payload) as StreamRefusal);
    }
  });
  await client.subscribeAsync([`${P}/devices/#`, `${P}/events/#`, `${P}/replies/${clientId}`], { qos: 0 });
  return view;
}

/** Resolves once `probe` holds; throws after `ms`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 5000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A command the device takes (its first toggle), or an empty state for a device without one. */
export function commandFor(device: Device): { input: { id: string; value: unknown } } | { state: object } {
  const toggle = device.inputs.find((input) => input.type === 'toggle' && !input.readOnly);
  if (!toggle) return { state: {} };
  return { input: { id: toggle.id, value: toggle.metadata?.value_on ?? true } };
}

/** The same as a stream command takes it: `{state: {<property>: <on value>}}`. */
export function stateFor(device: Device): { state: Record<string, unknown> } {
  const toggle = device.inputs.find((input) => input.type === 'toggle' && !input.readOnly);
  if (!toggle) return { state: {} };
  return { state: { [toggle.property]: toggle.metadata?.value_on ?? true } };
}
