import type { Device } from '@hearth/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../../test/databases.js';
import { type Household, startHousehold, testBuses, waitFor } from '../../devicehub-test-kit.js';

// Home Assistant discovery end to end, on the embedded broker and on Mosquitto: a producer (the
// scripted Zigbee2MQTT's MQTT client, signed in as the bus's external user) publishes configs and
// states in Home Assistant's format under the household's own discovery prefix.

describe.each(testDatabases())('Home Assistant discovery ($name)', ({ create }) => {
  describe.each(testBuses())('on the $name', ({ url }) => {
    let database: TestDatabase;
    let h: Household;
    let ha: string;
    beforeAll(async () => {
      database = await create();
      ({ household: h, haPrefix: ha } = await startHousehold(database, url));
      await h.publishDevicesAndWait(4);
    });
    afterAll(async () => {
      // Clears what the tests left retained on a shared broker.
      for (const topic of retained) await h.z2m.client.publishAsync(topic, '', { retain: true });
      await h?.close();
      await database?.drop();
    });

    const retained = new Set<string>();
    const publish = async (topic: string, payload: unknown, retain = false) => {
      if (retain) retained.add(topic);
      await h.z2m.client.publishAsync(
        topic,
        typeof payload === 'string' ? payload : JSON.stringify(payload),
        { retain },
      );
    };
    const byExternal = async (externalId: string) =>
      (await h.list()).find((d) => d.external_id === externalId);
    const device = (externalId: string, check: (d: Device) => boolean = () => true) =>
      waitFor(async () => {
        const found = await byExternal(externalId);
        return found && check(found) ? found : undefined;
      }, 10_000);
    const logLines = () => h.app.logs.lines.map((line) => JSON.parse(line));

    it('lists a device-based config (abbreviations, ~) as one device, reads its state through templates and sends commands as Home Assistant does', async () => {
      await publish(
        `${ha}/device/plug1/config`,
        {
          dev: { ids: 'plug-1', name: 'Desk plug', mf: 'Acme', mdl: 'P1', sw: '1.2', sa: 'Office' },
          o: { name: 'acme2mqtt' },
          '~': `${ha}/plug1`,
          avty_t: '~/status',
          cmps: {
            relay: {
              p: 'switch',
              cmd_t: '~/set',
              stat_t: '~/state',
              val_tpl: '{{ value_json.relay }}',
              ret: true,
              qos: 1,
            },
            power: {
              p: 'sensor',
              stat_t: '~/state',
              unit_of_meas: 'W',
              val_tpl: '{{ value_json.power | float | round(1) }}',
            },
          },
        },
        true,
      );
      const plug = await device('plug-1');
      expect(plug).toMatchObject({
        name: 'Desk plug',
        protocol: 'homeassistant',
        manufacturer: 'Acme',
        model: 'P1',
        firmware: '1.2',
        type: 'switch',
        suggested_room: 'Office',
        online: false,
      });
      expect(plug.capabilities.map((c) => [c.id, c.kind, c.unit ?? null])).toEqual([
        ['relay', 'binary', null],
        ['power', 'numeric', 'W'],
      ]);
      expect(plug.inputs.map((i) => [i.id, i.type])).toEqual([['relay', 'toggle']]);

      await publish(`${ha}/plug1/status`, 'online', true);
      await publish(`${ha}/plug1/state`, { relay: 'ON', power: 12.34 });
      await device('plug-1', (d) => d.online && d.state.relay === true && d.state.power === 12.3);

      // The command goes out as Home Assistant sends it: payload_off, retained, at QoS 1.
      const command = await h.command(plug.id, {
        input: { id: 'relay', value: false },
        state: { relay: false },
      });
      expect(command.statusCode).toBe(200);
      retained.add(`${ha}/plug1/set`);
      const listener = await mqtt.connectAsync({ ...pick(h.z2m.client.options), reconnectPeriod: 0 });
      try {
        const got = new Promise<{ payload: string; retain: boolean; qos: number }>((resolve) =>
          listener.on('message', (_topic, payload, packet) =>
            resolve({ payload: payload.toString(), retain: packet.retain, qos: packet.qos }),
          ),
        );
        await listener.subscribeAsync(`${ha}/plug1/set`, { qos: 1 });
        expect(await got).toEqual({ payload: 'OFF', retain: true, qos: 1 });
      } finally {
        await listener.endAsync();
      }
    });

    it('removes an entity on an empty config, and a device left with none; it returns with the same id', async () => {
      const config = {
        name: 'Hall motion',
        stat_t: `${ha}/binary_sensor/hall/state`,
        dev_cla: 'motion',
        dev: { ids: ['hall-1'], name: 'Hall sensor' },
      };
      await publish(`${ha}/binary_sensor/hall/motion/config`, config, true);
      const first = await device('hall-1');
      await publish(`${ha}/binary_sensor/hall/state`, 'ON');
      await device('hall-1', (d) => d.state.motion === true);

      await publish(`${ha}/binary_sensor/hall/motion/config`, '', true);
      await waitFor(async () => ((await byExternal('hall-1')) ? undefined : true), 10_000);

      await publish(`${ha}/binary_sensor/hall/motion/config`, config, true);
      expect((await device('hall-1')).id).toBe(first.id);
    });

    it('refuses an invalid config with one warning naming the topic and the reason, marks a failing template, and carries on', async () => {
      const invalid = `${ha}/switch/broken/config`;
      await publish(invalid, { name: 'Broken', cmd_t: `${ha}/broken/set`, availability: 'incorrect' }, true);
      await publish(invalid, { name: 'Broken', cmd_t: `${ha}/broken/set`, availability: 'incorrect' }, true);
      await publish(
        `${ha}/sensor/meter/energy/config`,
        {
          name: 'Energy',
          stat_t: `${ha}/meter/state`,
          unit_of_meas: 'kWh',
          val_tpl: '{{ value | float }}',
          dev: { ids: 'meter-1', name: 'Meter' },
        },
        true,
      );
      await device('meter-1');
      await publish(`${ha}/meter/state`, 'not a number');
      const meter = await device('meter-1', (d) => d.capabilities[0]?.error !== undefined);
      expect(meter.capabilities[0]?.error).toContain('float got invalid input');
      await publish(`${ha}/meter/state`, '4.5');
      await device('meter-1', (d) => d.state.energy === 4.5);

      const refused = logLines().filter((l) => l.msg === 'home assistant discovery config refused');
      expect(refused).toEqual([
        expect.objectContaining({ topic: invalid, reason: 'availability must be a list of {topic, …}' }),
      ]);
      expect(await byExternal('broken')).toBeUndefined();
    });

    it('subscribes topics outside the prefix (on a broker of its own), and judges availability by every topic in mode all', async () => {
      // The embedded broker's external user may only use the prefix: there the topics stay under it.
      const root = url ? `ha-elsewhere-${crypto.randomUUID().slice(0, 8)}` : `${ha}/elsewhere`;
      await publish(
        `${ha}/sensor/garage/door/config`,
        {
          name: null,
          state_topic: `${root}/garage/door`,
          availability: [
            { topic: `${root}/garage/online` },
            { topic: `${root}/bridge`, payload_available: 'ready', value_template: '{{ value_json.state }}' },
          ],
          availability_mode: 'all',
          device: { identifiers: ['garage-1'], name: 'Garage door' },
        },
        true,
      );
      const garage = await device('garage-1');
      expect(garage.capabilities[0]?.name).toBe('Garage door');
      await publish(`${root}/garage/online`, 'online');
      await publish(`${root}/garage/door`, 'open');
      await device('garage-1', (d) => d.state.door === 'open');
      // One topic of two: not yet online.
      expect((await byExternal('garage-1'))?.online).toBe(false);
      await publish(`${root}/bridge`, { state: 'ready' });
      await device('garage-1', (d) => d.online);
      await publish(`${root}/garage/online`, 'offline');
      await device('garage-1', (d) => !d.online);
    });

    it('renames a device in Hearth (discovery has no rename): the name holds over a later dev.name', async () => {
      const config = (name: string) => ({
        name: 'Level',
        stat_t: `${ha}/tank/level`,
        unit_of_meas: '%',
        dev: { ids: 'tank-1', name },
      });
      await publish(`${ha}/sensor/tank/level/config`, config('Tank'), true);
      const tank = await device('tank-1');
      const renamed = await h.call(
        'PATCH',
        `/api/devicehub/devices/${tank.id}`,
        { name: 'Rain barrel' },
        await h.token('admin'),
      );
      expect(renamed.statusCode).toBe(200);
      await publish(`${ha}/sensor/tank/level/config`, { ...config('Tank v2'), unit_of_meas: 'L' }, true);
      const after = await device('tank-1', (d) => d.capabilities[0]?.unit === 'L');
      expect(after).toMatchObject({ id: tank.id, name: 'Rain barrel' });
    });

    it("leaves Zigbee2MQTT's own discovery to the Zigbee2MQTT adapter: no device appears twice", async () => {
      const before = (await h.list()).length;
      await publish(
        `${ha}/sensor/0x00158d0001a2b3c4/battery/config`,
        {
          name: 'Battery',
          state_topic: `${h.z2m.base}/Front door`,
          value_template: '{{ value_json.battery }}',
          unit_of_measurement: '%',
          device: {
            identifiers: ['zigbee2mqtt_0x00158d0001a2b3c4'],
            name: 'Front door',
            via_device: 'zigbee2mqtt_bridge_0x1',
          },
          origin: { name: 'Zigbee2MQTT', sw: '2.1.0' },
        },
        true,
      );
      await waitFor(
        () =>
          logLines().some((l) => l.msg?.startsWith('home assistant discovery of a Zigbee2MQTT device')) ||
          undefined,
      );
      expect((await h.list()).length).toBe(before);
    });
  });
});

describe.each(testBuses().filter((bus) => bus.url))('Home Assistant birth message ($name)', ({ url }) => {
  it('publishes <prefix>/status = online when Hearth connects, so producers that do not retain send their configs', async () => {
    const database = await testDatabases()[0]!.create();
    const haPrefix = `ha-birth-${crypto.randomUUID().slice(0, 8)}`;
    const listener = await mqtt.connectAsync(url as string, { reconnectPeriod: 0 });
    const births: string[] = [];
    listener.on('message', (topic, payload) => {
      if (topic === `${haPrefix}/status`) births.push(payload.toString());
    });
    await listener.subscribeAsync(`${haPrefix}/status`);
    // The producer answers the birth message with its config, not retained.
    listener.on('message', (topic) => {
      if (topic !== `${haPrefix}/status`) return;
      void listener.publishAsync(
        `${haPrefix}/sensor/late/temp/config`,
        JSON.stringify({
          name: 'Temperature',
          state_topic: `${haPrefix}/late/t`,
          unit_of_measurement: '°C',
          device: { identifiers: 'late-1', name: 'Late sensor' },
        }),
      );
    });
    const { household } = await startHousehold(database, url, { base: '', prefix: '', haPrefix });
    try {
      await waitFor(() => births.includes('online') || undefined);
      await waitFor(
        async () => ((await household.list()).some((d) => d.external_id === 'late-1') ? true : undefined),
        15_000,
      );
    } finally {
      await listener.endAsync();
      await household.close();
      await database.drop();
    }
  });
});

/** The MQTT.js options to sign in as the same user again (host, port, credentials). */
function pick(options: mqtt.IClientOptions): mqtt.IClientOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 1883,
    protocol: 'mqtt',
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
  };
}
