import type { Device } from '@hearth/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { byName, streamClient, testBuses, useHousehold, waitFor } from './devicehub-test-kit.js';

/** What a browser sees of the device hub: MQTT.js over /ws/devicehub (docs/devicehub.md#stream). */
describe.each(testBuses())('device stream to browsers with Zigbee2MQTT on the $name', ({ url }) => {
  const h = useHousehold({ bus: url, browsers: true });
  const browsers: MqttClient[] = [];
  const browser = async () => {
    const connected = await streamClient(h.wsUrl, h.resident, h.prefix);
    browsers.push(connected.client);
    return connected;
  };
  afterAll(() => {
    for (const client of browsers) client.end(true);
  });

  it('hands the retained state to a late subscriber, and live state and upserts as they happen', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    await h.z2m.publish('Living room/Lamp', { state: 'ON', brightness: 77 });
    await waitFor(async () =>
      byName(await h.list(), 'Living room/Lamp')?.state.brightness === 77 ? true : undefined,
    );

    const late = await browser();
    await waitFor(() => late.messages.find((m) => m.topic === `${h.prefix}/devicehub/devices/${lamp.id}`));
    expect(JSON.parse(late.messages.find((m) => m.topic.endsWith(lamp.id))!.payload)).toMatchObject({
      state: 'ON',
      brightness: 77,
    });
    expect(late.messages.some((m) => m.topic.includes('by-external/'))).toBe(false);

    // The state report brought it online (no availability yet); now Zigbee2MQTT says it is gone.
    await h.z2m.publish('Living room/Lamp/availability', { state: 'offline' }, true);
    const upsert = await waitFor(() =>
      late.messages.find(
        (m) =>
          m.topic === `${h.prefix}/devicehub/events/device.upsert` && JSON.parse(m.payload).id === lamp.id,
      ),
    );
    const device: Device = JSON.parse(upsert.payload);
    expect(device).toMatchObject({
      id: lamp.id,
      external_id: lamp.external_id,
      online: false,
      name: 'Living room/Lamp',
    });
    expect(device.capabilities.length).toBeGreaterThan(0);
  });

  it('turns a browser command into a /set and a browser rename into a Zigbee2MQTT rename', async () => {
    const { client } = await browser();
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    await client.publishAsync(
      `${h.prefix}/devicehub/commands/device.set`,
      JSON.stringify({ device_id: lamp.id, state: { on: true, brightness: 50 } }),
    );
    await waitFor(() => h.z2m.sets.find((s) => (s.payload as { brightness?: number }).brightness === 50));
    expect(h.z2m.sets.at(-1)).toEqual({ name: 'Living room/Lamp', payload: { state: 'ON', brightness: 50 } });

    const door = byName(await h.list(), 'Front door')!;
    await client.publishAsync(
      `${h.prefix}/devicehub/commands/device.rename`,
      JSON.stringify({ device_id: door.id, name: 'Garden door' }),
    );
    await waitFor(async () => byName(await h.list(), 'Garden door'));
    expect(byName(await h.list(), 'Garden door')!.id).toBe(door.id);
  });

  it('tells browsers when a device leaves', async () => {
    const watcher = await browser();
    const remote = byName(await h.list(), 'Kitchen remote')!;
    await h.z2m.publish('bridge/event', { type: 'device_leave', data: { ieee_address: remote.external_id } });
    const removed = await waitFor(() =>
      watcher.messages.find((m) => m.topic === `${h.prefix}/devicehub/events/device.removed`),
    );
    expect(JSON.parse(removed.payload)).toEqual({ id: remote.id, external_id: remote.external_id });
    // Its retained state is cleared: a new subscriber no longer gets it.
    const late = await browser();
    await new Promise((r) => setTimeout(r, 300));
    expect(late.messages.some((m) => m.topic.endsWith(remote.id) && m.payload !== '')).toBe(false);
  });
});
