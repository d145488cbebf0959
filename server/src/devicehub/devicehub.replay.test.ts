import type { Device } from '@hearth/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabase } from '../../test/databases.js';
import { startRestartableEmbeddedBroker } from '../../test/restartable-broker.js';
import { ScriptedZigbee2mqtt } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { byName, type Household, startHousehold, testBuses, waitFor } from './devicehub-test-kit.js';

// docs/screens.md#device-list-and-stream after a restart: a broker replays Zigbee2MQTT's retained topics in its own order
// (Mosquitto walks its topic tree in hash order), so availability and state can arrive before
// `bridge/devices` names the device. Whatever the order, every device ends as Zigbee2MQTT says.

type Format = 'json' | 'legacy';
type Availability = 'online' | 'offline' | 'none';

/** One fixture device as a household has it: its state and availability on the bus. */
interface Plan {
  /** The fixture device's friendly name (its identity in assertions). */
  name: string;
  state: Record<string, unknown> | null;
  availability: Availability;
  format: Format;
}

interface Message {
  suffix: string;
  payload: unknown;
}

const FIXTURE_NAMES = ['Living room/Lamp', 'Front door', 'Stairs switch', 'Kitchen remote'];

const STATES: Record<string, Record<string, unknown>> = {
  'Living room/Lamp': { state: 'ON', brightness: 120, color_temp: 300 },
  'Front door': { contact: true, battery: 90, voltage: 3000 },
  'Stairs switch': { state_left: 'ON', state_right: 'OFF' },
  'Kitchen remote': { battery: 40 },
};

/** The four fixture devices, two online, one offline, one without availability reports. */
const household = (format: Format): Plan[] =>
  FIXTURE_NAMES.map((name) => ({
    name,
    state: STATES[name]!,
    availability: name === 'Kitchen remote' ? 'offline' : name === 'Front door' ? 'none' : 'online',
    format,
  }));

let runs = 0;

/**
 * Zigbee2MQTT's retained topics for a plan, under fresh names and IEEE addresses (so runs on one
 * bus never see each other's devices), and a sentinel device whose state is published last: once
 * it shows, everything before it has been handled.
 */
function topicsOf(plans: Plan[], fixture: Record<string, unknown>[]) {
  const run = ++runs;
  const rename = (name: string) => `${name} ${run}`;
  const ieee = (index: number) => `0x${(run * 16 + index).toString(16).padStart(16, '0')}`;
  const entry = (name: string) => fixture.find((d) => d.friendly_name === name)!;
  const listed = plans.map((plan, index) => ({
    ...entry(plan.name),
    friendly_name: rename(plan.name),
    ieee_address: ieee(index),
  }));
  const sentinel = { ...entry('Front door'), friendly_name: `Sentinel ${run}`, ieee_address: ieee(15) };
  const list: Message = { suffix: 'bridge/devices', payload: [...listed, sentinel] };
  const perDevice = plans.map((plan) => {
    const messages: Message[] = [];
    if (plan.availability !== 'none') {
      messages.push({
        suffix: `${rename(plan.name)}/availability`,
        payload: plan.format === 'json' ? { state: plan.availability } : plan.availability,
      });
    }
    if (plan.state) messages.push({ suffix: rename(plan.name), payload: plan.state });
    return messages;
  });
  return { list, perDevice, sentinel: `Sentinel ${run}`, rename };
}

let marks = 0;

/**
 * Publishes the sentinel's state (not retained) and waits for it: the bus keeps one publisher's
 * messages in order, so everything published before it has been handled then.
 */
async function afterSentinel(h: Household, z2m: ScriptedZigbee2mqtt, sentinel: string) {
  const mark = ++marks;
  await z2m.publish(sentinel, { battery: mark });
  return waitFor(async () => {
    const list = await h.list();
    return list.find((d) => d.name === sentinel)?.state.battery === mark ? list : undefined;
  });
}

/** What a household sees of a plan's devices: name (the fixture's), online flag and state. */
function snapshot(devices: Device[], plans: Plan[], rename: (name: string) => string) {
  return plans.map((plan) => {
    const device = byName(devices, rename(plan.name));
    return device ? { name: plan.name, online: device.online, state: device.state } : { name: plan.name };
  });
}

/** What Zigbee2MQTT said: listed, online unless it reported offline, the state it published. */
const expected = (plans: Plan[]) =>
  plans.map((plan) => ({
    name: plan.name,
    online: plan.availability !== 'offline',
    state: plan.state ?? {},
  }));

const ORDERS: Record<string, (list: Message, perDevice: Message[][]) => Message[]> = {
  'list first': (list, perDevice) => [list, ...perDevice.flat()],
  'list last': (list, perDevice) => [...perDevice.flat(), list],
  // Some devices complete before the list, one is split around it, the rest follow.
  interleaved: (list, perDevice) => {
    const rest = perDevice.flat();
    return [...rest.slice(0, 3), list, ...rest.slice(3)];
  },
};

/** Publishes the messages in this order (retained, like Zigbee2MQTT), then the sentinel; returns the outcome. */
async function play(
  h: Household,
  plans: Plan[],
  order: (list: Message, perDevice: Message[][]) => Message[],
) {
  const topics = topicsOf(plans, h.z2m.devices);
  for (const message of order(topics.list, topics.perDevice)) {
    await h.z2m.publish(message.suffix, message.payload, true);
    published.add(`${h.z2m.base}\u0000${message.suffix}`);
  }
  return snapshot(await afterSentinel(h, h.z2m, topics.sentinel), plans, topics.rename);
}

/** Every retained topic the tests left on a broker, cleared at the end (Mosquitto is shared). */
const published = new Set<string>();
async function clearRetained(z2m: ScriptedZigbee2mqtt) {
  for (const key of published) {
    const [base, suffix] = key.split('\u0000') as [string, string];
    if (base === z2m.base) await z2m.publish(suffix, '', true);
  }
}

describe.each(testBuses())('retained replay order on the $name', ({ url }) => {
  describe.each(['json', 'legacy'] as const)('availability as %s', (format) => {
    it.each(Object.keys(ORDERS))(
      '%s: every device ends online or offline as reported, with its state',
      async (order) => {
        const database = sqliteDatabase();
        const { household: h } = await startHousehold(database, url);
        try {
          const plans = household(format);
          expect(await play(h, plans, ORDERS[order]!)).toEqual(expected(plans));
        } finally {
          await clearRetained(h.z2m);
          await h.close();
          await database.drop();
        }
      },
    );
  });

  it('starts against a broker that already holds the retained topics, and again after a restart', async () => {
    // The broker: Mosquitto, or the embedded broker exposed on a port.
    const broker = url ? undefined : await startRestartableEmbeddedBroker();
    const busUrl = url ?? broker!.url;
    const base = `z2m-test-${crypto.randomUUID().slice(0, 8)}`;
    const z2m = await ScriptedZigbee2mqtt.connect(busUrl, base);
    const database = sqliteDatabase();
    try {
      const plans = household('json').map((plan, index) => ({
        ...plan,
        format: index % 2 === 0 ? ('json' as const) : ('legacy' as const),
      }));
      const topics = topicsOf(plans, z2m.devices);
      // Retained before Hearth starts: the broker decides the order Hearth receives them in.
      for (const message of [...topics.perDevice.flat(), topics.list]) {
        await z2m.publish(message.suffix, message.payload, true);
        published.add(`${base}\u0000${message.suffix}`);
      }
      for (const restart of [false, true]) {
        const { household: h } = await startHousehold(database, busUrl, { base, prefix: '' });
        try {
          // The sentinel is listed: once the list is in, Hearth has subscribed, and a message
          // published now reaches it after the broker's whole retained replay.
          await waitFor(async () => ((await h.list()).length === plans.length + 1 ? true : undefined));
          const outcome = snapshot(await afterSentinel(h, z2m, topics.sentinel), plans, topics.rename);
          // Retained state says nothing about the device being there now: only availability does.
          expect({ restart, outcome }).toEqual({
            restart,
            outcome: expected(plans).map((e) => (e.name === 'Front door' ? { ...e, online: false } : e)),
          });
        } finally {
          await h.z2m.client.endAsync();
          await h.app.close();
        }
      }
    } finally {
      await clearRetained(z2m);
      await z2m.close();
      await broker?.stop();
      await database.drop();
    }
  });

  it('applies retained messages under a new name that arrive before the rename is answered', async () => {
    const database = sqliteDatabase();
    const { household: h } = await startHousehold(database, url);
    try {
      await h.z2m.publishDevices();
      await h.z2m.publish('Living room/Lamp/availability', 'online', true);
      published.add(`${h.z2m.base}\u0000Living room/Lamp/availability`);
      const device = await waitFor(async () => {
        const lamp = byName(await h.list(), 'Living room/Lamp');
        return lamp?.online ? lamp : undefined;
      });
      h.z2m.beforeRenameAnswer = async (to) => {
        await h.z2m.publish(`${to}/availability`, 'offline', true);
        await h.z2m.publish(to, { state: 'OFF', brightness: 7 }, true);
        published.add(`${h.z2m.base}\u0000${to}/availability`).add(`${h.z2m.base}\u0000${to}`);
      };
      const renamed = await h.call('PATCH', `/api/devicehub/devices/${device.id}`, { name: 'Desk lamp' });
      expect(renamed.statusCode).toBe(200);
      const desk = await waitFor(async () => {
        const found = byName(await h.list(), 'Desk lamp');
        return found?.state.brightness === 7 ? found : undefined;
      });
      expect(desk).toMatchObject({ id: device.id, online: false, state: { state: 'OFF', brightness: 7 } });
    } finally {
      await clearRetained(h.z2m);
      await h.close();
      await database.drop();
    }
  });

  describe('any order (property-based)', () => {
    const database = sqliteDatabase();
    let h: Household;
    beforeAll(async () => {
      ({ household: h } = await startHousehold(database, url));
    });
    afterAll(async () => {
      if (h) await clearRetained(h.z2m);
      await h?.close();
      await database.drop();
    });

    const plan = (name: string) =>
      fc.record({
        name: fc.constant(name),
        state: fc.option(
          fc.record({
            battery: fc.integer({ min: 0, max: 100 }),
            linkquality: fc.integer({ min: 0, max: 255 }),
          }),
          { nil: null },
        ),
        availability: fc.constantFrom<Availability>('online', 'offline', 'none'),
        format: fc.constantFrom<Format>('json', 'legacy'),
      });
    const scenario = fc
      .subarray(FIXTURE_NAMES, { minLength: 1 })
      .chain((names) => fc.tuple(...names.map(plan)))
      .chain((plans) => {
        const count = plans.reduce(
          (sum, p) => sum + (p.availability === 'none' ? 0 : 1) + (p.state ? 1 : 0),
          1,
        );
        // A random order: the rank of each message (the list is message 0).
        return fc.tuple(
          fc.constant(plans as Plan[]),
          fc.array(fc.nat(), { minLength: count, maxLength: count }),
        );
      });

    it('ends in the same devices, states and online flags as the list-first order', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ([plans, ranks]) => {
          const listFirst = await play(h, plans, ORDERS['list first']!);
          const shuffled = await play(h, plans, (list, perDevice) =>
            [list, ...perDevice.flat()]
              .map((message, index) => ({ message, rank: ranks[index]! }))
              .sort((a, b) => a.rank - b.rank)
              .map(({ message }) => message),
          );
          expect(shuffled).toEqual(listFirst);
        }),
        { numRuns: 30, endOnFailure: true },
      );
    });
  });
});
