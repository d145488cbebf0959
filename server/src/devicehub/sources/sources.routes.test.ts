import type { ActivityEntry, SourceStatus } from '@hearth/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../test/databases.js';
import { eventually } from '../../../test/wait.js';
import { type Household, startHousehold } from '../devicehub-test-kit.js';

// docs/api.md#sources: the admins' Sources page's calls, on a household whose four sources are on
// (each with topics of its own), a producer publishing on the embedded broker as the bus's external user.

describe.each(testDatabases())('the Sources calls ($name)', ({ create }) => {
  let database: TestDatabase;
  let h: Household;
  let admin: string;
  const cleared: { topic: string; retained: boolean; empty: boolean }[] = [];
  let watcher: mqtt.MqttClient;

  beforeAll(async () => {
    database = await create();
    ({ household: h } = await startHousehold(database, undefined));
    await h.publishDevicesAndWait(4);
    admin = await h.token('admin');
    // What reaches the bus under the discovery prefix (Forget's empty retained message).
    watcher = await connect();
    await watcher.subscribeAsync(`${h.haPrefix}/#`);
    watcher.on('message', (topic, payload, packet) =>
      cleared.push({ topic, retained: packet.retain, empty: payload.length === 0 }),
    );
  });
  afterAll(async () => {
    await watcher?.endAsync();
    await h?.close();
    await database?.drop();
  });

  /** Another client on the bus, as the external user the scripted Zigbee2MQTT signs in as. */
  const connect = () => {
    const { host, port, username, password } = h.z2m.client.options;
    return mqtt.connectAsync({ host, port, username, password, protocolVersion: 4, reconnectPeriod: 0 });
  };
  const sources = async (token = admin) =>
    (await h.call('GET', '/api/devicehub/sources', undefined, token)).json<SourceStatus[]>();
  const source = async (protocol: string) =>
    (await sources()).find((s) => s.protocol === protocol) as SourceStatus;

  it('lists each source as configured, with its devices and when one was last heard', async () => {
    const list = await sources();
    expect(list.map((s) => [s.protocol, s.name, s.enabled])).toEqual([
      ['zigbee', 'Zigbee2MQTT', true],
      ['homeassistant', 'Home Assistant', true],
      ['tasmota', 'Tasmota', true],
      ['shelly', 'Shelly', true],
    ]);
    expect(list[0]).toMatchObject({
      devices: 4,
      topics: [expect.stringMatching(/^z2m-test-/)],
      forgets: false,
    });
    expect(list[1]).toMatchObject({ devices: 0, last_message: null, topics: [h.haPrefix], forgets: true });
    expect(list[3]?.topics).toEqual(['+', `${h.shellyRoot}/+`]);

    await h.z2m.client.publishAsync(
      `${h.haPrefix}/sensor/probe/temperature/config`,
      JSON.stringify({
        name: 'Temperature',
        stat_t: `${h.haPrefix}/probe/t`,
        unit_of_meas: '°C',
        dev: { ids: 'probe-1', name: 'Probe' },
      }),
      { retain: true },
    );
    await eventually(
      () => source('homeassistant'),
      (s) => s.devices === 1,
    );
    await h.z2m.client.publishAsync(`${h.haPrefix}/probe/t`, '21.5');
    const heard = await eventually(
      () => source('homeassistant'),
      (s) => s.devices === 1 && s.last_message !== null,
    );
    expect(Date.parse(heard.last_message as string)).toBeGreaterThan(Date.now() - 60_000);
    await h.z2m.client.publishAsync(`${h.haPrefix}/sensor/probe/temperature/config`, '', { retain: true });
  });

  it('shows a refused config with its reason and topic, and Forget clears it on the bus, once, as an activity entry', async () => {
    const topic = `${h.haPrefix}/switch/ghost/config`;
    await h.z2m.client.publishAsync(
      topic,
      JSON.stringify({ name: 'Ghost', cmd_t: `${h.haPrefix}/ghost/set`, availability: 'yes' }),
      {
        retain: true,
      },
    );
    const refused = await eventually(
      () => source('homeassistant'),
      (s) => s.rejected.length > 0,
    );
    expect(refused.rejected).toEqual([
      { topic, reason: 'availability must be a list of {topic, …}', at: expect.any(String), forget: topic },
    ]);

    const answer = await h.call('POST', '/api/devicehub/sources/homeassistant/forget', { topic }, admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ protocol: 'homeassistant', topic });
    await eventually(
      async () => cleared.filter((m) => m.topic === topic && m.empty),
      (empties) => empties.length === 1,
    );
    expect((await source('homeassistant')).rejected).toEqual([]);
    // Retained no more: a new subscriber gets nothing on it before a message sent after it subscribed.
    const late = await connect();
    const heard: string[] = [];
    late.on('message', (t) => heard.push(t));
    await late.subscribeAsync([topic, `${h.haPrefix}/marker`]);
    await late.publishAsync(`${h.haPrefix}/marker`, 'x');
    await eventually(
      async () => heard,
      (topics) => topics.includes(`${h.haPrefix}/marker`),
    );
    await late.endAsync();
    expect(heard).toEqual([`${h.haPrefix}/marker`]);

    const entries = (await h.call('GET', '/api/activity?kind=source.forget', undefined, admin)).json<{
      entries: ActivityEntry[];
    }>().entries;
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'source.forget',
        result: 'ok',
        detail: { source: 'homeassistant', topic },
      }),
    ]);
  });

  it('refuses what is not a retained config of the source, and everyone but admins', async () => {
    const refuse = async (protocol: string, body: unknown, token = admin) => {
      const answer = await h.call('POST', `/api/devicehub/sources/${protocol}/forget`, body, token);
      return [answer.statusCode, answer.json().error];
    };
    expect(await refuse('homeassistant', { topic: 'zigbee2mqtt/bridge/devices' })).toEqual([
      400,
      'Not a retained config topic of this source',
    ]);
    expect(await refuse('homeassistant', { topic: `${h.haPrefix}/#` })).toEqual([
      400,
      'topic must be a topic of at most 512 characters, without "#" or "+"',
    ]);
    expect(await refuse('zigbee', { topic: 'zigbee2mqtt/bridge/devices' })).toEqual([
      400,
      'This source has no retained configs to forget',
    ]);
    expect(await refuse('matter', { topic: 'x/config' })).toEqual([400, 'Unknown source']);
    const resident = await h.token('resident');
    expect((await h.call('GET', '/api/devicehub/sources', undefined, resident)).statusCode).toBe(403);
    expect((await refuse('homeassistant', { topic: `${h.haPrefix}/a/b/config` }, resident))[0]).toBe(403);
  });
});
