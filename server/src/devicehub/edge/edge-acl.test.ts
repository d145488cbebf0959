import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import type { UserRecord } from '../../users/index.js';
import type { EdgeCommand } from './edge-broker.js';
import { closed, type EdgeHarness, eventually, inbox, P, startEdgeHarness } from './edge-test-kit.js';

describe.each(testDatabases())('edge broker: what a browser may read and write ($name)', ({ create }) => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('grants subscriptions under devices/ and events/ only', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const client = await h.connect({ token });
    const filters = [
      `${P}/devices/#`,
      `${P}/devices/+`,
      `${P}/events/device.upsert`,
      '#',
      '+/devicehub/devices/#',
      '$SYS/#',
      'zigbee2mqtt/#',
      `${P}/#`,
      `${P}/commands/#`,
    ];
    // MQTT.js rejects a SUBACK that refuses any filter; the refusal codes are on the packet.
    const suback = await client.subscribeAsync(filters).then(
      () => undefined,
      (error: { packet?: { granted?: number[] } }) => error.packet?.granted,
    );
    const granted = filters.map((topic, i) => ({ topic, qos: suback?.[i] }));
    expect(Object.fromEntries(granted.map((g) => [g.topic, g.qos]))).toEqual({
      [`${P}/devices/#`]: 0,
      [`${P}/devices/+`]: 0,
      [`${P}/events/device.upsert`]: 0,
      '#': 128,
      '+/devicehub/devices/#': 128,
      '$SYS/#': 128,
      'zigbee2mqtt/#': 128,
      [`${P}/#`]: 128,
      [`${P}/commands/#`]: 128,
    });
  });

  it('delivers device state and events, and retained state reaches a late subscriber', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    await h.edge.publish('devices/lamp-1', '{"state":"ON"}', { retain: true });
    const late = await h.connect({ token });
    const messages = inbox(late);
    await late.subscribeAsync([`${P}/devices/#`, `${P}/events/#`]);
    await h.edge.publish('events/device.upsert', '{"id":"lamp-1"}');
    await eventually(() => messages.length === 2);
    expect(messages).toEqual([
      { topic: `${P}/devices/lamp-1`, payload: '{"state":"ON"}', retain: true },
      { topic: `${P}/events/device.upsert`, payload: '{"id":"lamp-1"}', retain: false },
    ]);
  });

  it('forgets retained state cleared with an empty payload, and publishes only to browser topics', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    await h.edge.publish('devices/gone', '{"state":"ON"}', { retain: true });
    await h.edge.publish('devices/kept', '{"state":"OFF"}', { retain: true });
    await h.edge.publish('devices/gone', '', { retain: true });
    await expect(h.edge.publish('commands/device.set', '{}')).rejects.toThrow(/may not receive/);
    await expect(h.edge.publish('devices/#', '{}')).rejects.toThrow(/invalid edge topic/);
    const late = await h.connect({ token });
    const messages = inbox(late);
    await late.subscribeAsync(`${P}/devices/#`);
    await eventually(() => messages.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages.map((m) => m.topic)).toEqual([`${P}/devices/kept`]);
  });

  it('hands commands to the hub with the user who sent them, and not to other browsers', async () => {
    h = await startEdgeHarness(await create());
    const { record, token } = await h.user('resident');
    const received: { command: EdgeCommand; user: UserRecord }[] = [];
    h.edge.onCommand((command, caller) => {
      if (caller.principal.kind === 'user') received.push({ command, user: caller.principal.user });
    });
    const watcher = await h.connect({ token: (await h.user('admin')).token });
    const watched = inbox(watcher);
    await watcher.subscribeAsync([`${P}/devices/#`, `${P}/events/#`]);
    const client = await h.connect({ token });
    await client.publishAsync(
      `${P}/commands/device.set`,
      JSON.stringify({ device_id: 'd1', state: { on: true } }),
    );
    await client.publishAsync(
      `${P}/commands/device.rename`,
      JSON.stringify({ device_id: 'd1', name: 'Hall' }),
      {
        qos: 1,
        retain: true,
      },
    );
    await client.publishAsync(`${P}/commands/device.set`, 'not json');
    await eventually(() => received.length === 2);
    expect(received.map((r) => [r.command, r.user.id])).toEqual([
      [{ kind: 'device.set', payload: { device_id: 'd1', state: { on: true } } }, record.id],
      [{ kind: 'device.rename', payload: { device_id: 'd1', name: 'Hall' } }, record.id],
    ]);
    expect(client.connected).toBe(true);
    expect(watched).toEqual([]);
  });

  it.each([
    `${P}/devices/lamp-1`,
    `${P}/events/device.upsert`,
    `${P}/commands/device.delete`,
    'zigbee2mqtt/lamp/set',
    '$SYS/broker',
  ])('disconnects a browser that publishes on %s, and the message goes nowhere', async (topic) => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('admin');
    const watcher = await h.connect({ token });
    const watched = inbox(watcher);
    await watcher.subscribeAsync(`${P}/devices/#`);
    const client = await h.connect({ token });
    client.publish(topic, '{"state":"OFF"}', { retain: true });
    await closed(client);
    const late = await h.connect({ token });
    const seenLate = inbox(late);
    await late.subscribeAsync(`${P}/devices/#`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watched).toEqual([]);
    expect(seenLate).toEqual([]);
  });

  it('refuses a packet over 256 KB and keeps one under it', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const commands: unknown[] = [];
    h.edge.onCommand((command) => {
      commands.push(command);
    });
    const client = await h.connect({ token });
    const fits = JSON.stringify({ device_id: 'd1', name: 'x'.repeat(200 * 1024) });
    await client.publishAsync(`${P}/commands/device.rename`, fits);
    await eventually(() => commands.length === 1);
    client.publish(
      `${P}/commands/device.rename`,
      JSON.stringify({ device_id: 'd1', name: 'x'.repeat(256 * 1024) }),
    );
    await closed(client);
    expect(commands).toHaveLength(1);
  });

  it('refuses a topic of more than 16 levels', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const client = await h.connect({ token });
    const sixteen = `${P}/devices/${Array.from({ length: 13 }, (_, i) => `l${i}`).join('/')}`;
    expect(sixteen.split('/')).toHaveLength(16);
    expect((await client.subscribeAsync(sixteen))[0]?.qos).toBe(0);
    client.subscribe(`${sixteen}/l13`);
    await closed(client);
  });
});
