import type { Device } from '@hearth/contracts';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../../test/databases.js';
import { type Household, startHousehold, testBuses, waitFor } from '../../devicehub-test-kit.js';
import { ScriptedTasmota } from './fixtures/scripted-tasmota.js';
import { type DiscoveryConfig, discoveryConfig, relays } from './fixtures/tasmota-discovery.js';

// Tasmota's native discovery end to end, on the embedded broker and on Mosquitto: scripted Tasmota
// devices (signed in as the bus's external user) announce themselves under the household's own
// discovery prefix, answer Hearth's commands and report as firmware does.

describe.each(testDatabases())('Tasmota ($name)', ({ create }) => {
  describe.each(testBuses())('on the $name', ({ url }) => {
    let database: TestDatabase;
    let h: Household;
    const devices: ScriptedTasmota[] = [];
    beforeAll(async () => {
      database = await create();
      ({ household: h } = await startHousehold(database, url));
      await h.publishDevicesAndWait(4);
    });
    afterAll(async () => {
      for (const device of devices) {
        await device.clear();
        await device.close();
      }
      await h?.close();
      await database?.drop();
    });

    const unique = () => crypto.randomUUID().slice(0, 6);
    /** A device of its own: a unique MAC and topic, so runs on a shared broker stay apart. */
    async function tasmota(
      overrides: Partial<DiscoveryConfig>,
      sensors: Record<string, unknown> = {},
      now?: Record<string, unknown>,
    ) {
      const id = unique();
      const mac = `A4CF12${id.toUpperCase().replace(/[^0-9A-F]/g, '0')}`;
      const device = await ScriptedTasmota.connect(
        options(h.z2m.client.options),
        h.tasmotaPrefix,
        discoveryConfig({ ...overrides, mac, t: `${overrides.t ?? 'tasmota'}_${id}` }),
        sensors,
      );
      devices.push(device);
      await device.announce(now);
      return device;
    }
    const listed = (mac: string, check: (d: Device) => boolean = () => true) =>
      waitFor(async () => {
        const found = (await h.list()).find((d) => d.external_id === mac);
        return found && check(found) ? found : undefined;
      }, 10_000);

    it('lists a relay with its energy sensors, asks for its state when it comes online, and switches it with Power1', async () => {
      // Discovery says 0 W; what the plug answers when asked for its state, 41 W.
      const plug = await tasmota(
        { dn: 'Desk plug', md: 'Nous A1T', sw: '13.4.0' },
        { ENERGY: { Total: 3.2, Power: 0, Voltage: 229 } },
        { ENERGY: { Total: 3.25, Power: 41, Voltage: 231 } },
      );
      const device = await listed(plug.config.mac, (d) => d.online && d.state.energy_power === 41);
      expect(device).toMatchObject({
        name: 'Desk plug',
        protocol: 'tasmota',
        manufacturer: 'Tasmota',
        model: 'Nous A1T',
        firmware: '13.4.0',
        type: 'switch',
        state: { state: false, energy_total: 3.25, energy_voltage: 231 },
      });
      expect(device.capabilities.map((c) => [c.property, c.unit ?? null])).toEqual(
        expect.arrayContaining([
          ['state', null],
          ['energy_total', 'kWh'],
          ['energy_power', 'W'],
        ]),
      );
      // On LWT Online, Hearth asked for its state and its sensors.
      expect(plug.received).toEqual(expect.arrayContaining(['STATE ', 'STATUS 10']));

      const since = new Date().toISOString();
      const answer = await h.command(device.id, {
        input: { id: 'state', value: true },
        state: { state: true },
      });
      expect(answer.statusCode).toBe(200);
      await waitFor(() => plug.received.includes('Power1 ON') || undefined);
      await listed(plug.config.mac, (d) => d.state.state === true);
      // The activity log records what was sent.
      await h.app.activity.flush();
      const log = await h.call(
        'GET',
        `/api/activity?kind=device.command&from=${since}`,
        undefined,
        await h.token('admin'),
      );
      expect(
        (log.json().entries as { device_id: string; result: string; detail: { state?: unknown } }[])
          .filter((e) => e.device_id === device.id)
          .map((e) => [e.result, e.detail.state]),
      ).toEqual([['ok', { state: true }]]);
    });

    it('dims and tints a light with one Backlog, and reads back what it reports', async () => {
      const bulb = await tasmota({ t: 'bulb', dn: 'Reading light', rl: relays(2), lt_st: 5 });
      const device = await listed(bulb.config.mac, (d) => d.online && d.type === 'light');
      const light = device.capabilities.find((c) => c.property === 'light');
      expect(light?.features?.map((f) => f.property)).toEqual([
        'state',
        'brightness',
        'color_temp',
        'color',
        'effect',
        'transition',
      ]);
      const answer = await h.command(device.id, {
        input: { id: 'light', value: { brightness: 40, color_temp: 250 } },
        state: { light: { brightness: 40, color_temp: 250 } },
      });
      expect(answer.statusCode).toBe(200);
      await waitFor(() => bulb.received.includes('Backlog NoDelay;Dimmer 40;NoDelay;CT 250') || undefined);
      await listed(bulb.config.mac, (d) => {
        const value = d.state.light as
          | { state?: boolean; brightness?: number; color_temp?: number }
          | undefined;
        return value?.state === true && value.brightness === 40 && value.color_temp === 250;
      });
      await h.command(device.id, { state: { light: { color: '#FF0000' } } });
      await waitFor(
        () =>
          bulb.received.includes('Backlog NoDelay;Power1 ON;NoDelay;HsbColor1 0;NoDelay;HsbColor2 100') ||
          undefined,
      );
      await listed(
        bulb.config.mac,
        (d) => JSON.stringify((d.state.light as { color?: unknown }).color) === '{"hue":0,"saturation":100}',
      );
    });

    it('moves a shutter to a position and opens it, its state from stat/RESULT', async () => {
      const blind = await tasmota({ t: 'blind', dn: 'Kitchen blind', rl: relays(3, 3) });
      const device = await listed(blind.config.mac, (d) => d.online && d.type === 'cover');
      await h.command(device.id, { input: { id: 'cover', value: { position: 30 } } });
      await waitFor(() => blind.received.includes('ShutterPosition1 30') || undefined);
      await listed(
        blind.config.mac,
        (d) => JSON.stringify(d.state.cover) === '{"position":30,"state":"open"}',
      );
      await h.command(device.id, { state: { cover: { command: 'close' } } });
      await waitFor(() => blind.received.includes('ShutterClose1 ') || undefined);
      await listed(blind.config.mac, (d) => (d.state.cover as { state?: string }).state === 'closed');
    });

    it("reads sensors' telemetry with their units, and buttons as actions", async () => {
      const meter = await tasmota(
        { t: 'climate', dn: 'Cellar climate', rl: relays(), btn: [1, 0, 0, 0] },
        { SHT3X: { Temperature: 12.1, Humidity: 70.2, DewPoint: 6.9 }, TempUnit: 'C' },
      );
      const device = await listed(meter.config.mac, (d) => d.online);
      expect(device.type).toBe('remote');
      expect(device.capabilities.find((c) => c.property === 'sht3x_temperature')?.unit).toBe('°C');
      await meter.telemetry({ SHT3X: { Temperature: 11.8, Humidity: 71.5, DewPoint: 6.8 }, TempUnit: 'C' });
      await listed(
        meter.config.mac,
        (d) => d.state.sht3x_temperature === 11.8 && d.state.sht3x_humidity === 71.5,
      );
      await meter.result({ Button1: { Action: 'DOUBLE' } });
      await listed(meter.config.mac, (d) => d.state.action === 'button_1_double');
    });

    it('follows its LWT (Offline, Online) and asks for its state each time it returns', async () => {
      const relay = await tasmota({ t: 'garage', dn: 'Garage relay' });
      await listed(relay.config.mac, (d) => d.online);
      await relay.offline();
      await listed(relay.config.mac, (d) => !d.online);
      const asked = relay.received.filter((r) => r === 'STATE ').length;
      await relay.online();
      await listed(relay.config.mac, (d) => d.online);
      await waitFor(() => relay.received.filter((r) => r === 'STATE ').length > asked || undefined);
    });

    it('removes a device on an empty config; it returns with the same id', async () => {
      const relay = await tasmota({ t: 'porch', dn: 'Porch light' });
      const first = await listed(relay.config.mac);
      await relay.withdraw();
      await waitFor(
        async () => ((await h.list()).some((d) => d.external_id === relay.config.mac) ? undefined : true),
        10_000,
      );
      await relay.announce();
      expect((await listed(relay.config.mac)).id).toBe(first.id);
    });
  });
});

/** The scripted Zigbee2MQTT's broker and login (the bus's external user), for a device of its own. */
function options(from: mqtt.IClientOptions): mqtt.IClientOptions {
  return {
    host: from.host ?? '127.0.0.1',
    port: from.port ?? 1883,
    protocol: 'mqtt',
    ...(from.username ? { username: from.username } : {}),
    ...(from.password ? { password: from.password } : {}),
  };
}
