import type { Device } from '@hearth/contracts';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../../test/databases.js';
import { type Household, startHousehold, testBuses, waitFor } from '../../devicehub-test-kit.js';
import { ScriptedShelly } from './fixtures/scripted-shelly.js';
import { deviceInfo, dimmer, humidityTemperature, plus1pm, plus2pmCover } from './fixtures/shelly-devices.js';

// Shelly Gen2+ over MQTT end to end, on the embedded broker and on Mosquitto: scripted Shelly
// devices (signed in as the bus's external user) under the household's own prefix root answer
// Hearth's RPC on <src>/rpc and notify their changes as firmware does.

describe.each(testDatabases())('Shelly ($name)', ({ create }) => {
  describe.each(testBuses())('on the $name', ({ url }) => {
    let database: TestDatabase;
    let h: Household;
    const devices: ScriptedShelly[] = [];
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

    /** A device of its own under the household's root: `<root>/<app lower-case>-<unique>`. */
    async function shelly(app: string, status: Record<string, unknown>, info: Record<string, unknown> = {}) {
      const id = `shelly${app.toLowerCase()}-${crypto.randomUUID().slice(0, 12).replace(/-/g, '0')}`;
      const device = await ScriptedShelly.connect(
        options(h.z2m.client.options),
        `${h.shellyRoot}/${id}`,
        deviceInfo(id, app, info),
        status,
      );
      devices.push(device);
      await device.online();
      return device;
    }
    const listed = (prefix: string, check: (d: Device) => boolean = () => true) =>
      waitFor(async () => {
        const found = (await h.list()).find((d) => d.external_id === prefix);
        return found && check(found) ? found : undefined;
      }, 10_000);

    it('finds a device by its online topic, describes it from Shelly.GetDeviceInfo and GetStatus, and switches it with Switch.Set', async () => {
      const plug = await shelly('Plus1PM', plus1pm(), { name: 'Coffee machine', gen: 2, ver: '1.5.1' });
      const device = await listed(plug.prefix, (d) => d.online && d.state.state === false);
      expect(device).toMatchObject({
        name: 'Coffee machine',
        protocol: 'shelly',
        manufacturer: 'Shelly',
        model: 'S-Plus1PM',
        firmware: '1.5.1',
        type: 'switch',
        state: { state: false, voltage: 231.4, energy: 1520.4 },
      });
      const answer = await h.command(device.id, {
        input: { id: 'state', value: true },
        state: { state: true },
      });
      expect(answer.statusCode).toBe(200);
      expect(plug.received).toContain('Switch.Set {"id":0,"on":true}');
      // The device's NotifyStatus says so.
      await listed(plug.prefix, (d) => d.state.state === true);
      await plug.notify('NotifyStatus', { 'switch:0': { id: 0, apower: 1180.5 } });
      await listed(plug.prefix, (d) => d.state.power === 1180.5 && d.state.state === true);
    });

    it('opens a cover, sets its position and reads it back', async () => {
      const blind = await shelly('Plus2PM', plus2pmCover(), { name: 'Terrace blind' });
      const device = await listed(blind.prefix, (d) => d.online && d.type === 'cover');
      expect(device.state.cover).toEqual({ state: 'stopped', position: 62, tilt: 20 });
      await h.command(device.id, { input: { id: 'cover', value: { position: 25 } } });
      expect(blind.received).toContain('Cover.GoToPosition {"id":0,"pos":25}');
      await listed(
        blind.prefix,
        (d) => JSON.stringify(d.state.cover) === '{"state":"stopped","position":25,"tilt":20}',
      );
      await h.command(device.id, { state: { cover: { command: 'open' } } });
      await listed(blind.prefix, (d) => (d.state.cover as { position?: number }).position === 100);
    });

    it("dims a light and reports its input's button presses as actions", async () => {
      const light = await shelly('DimmerG3', dimmer());
      const device = await listed(light.prefix, (d) => d.online && d.type === 'light');
      await h.command(device.id, { state: { light: { brightness: 60 }, on: true } });
      expect(light.received).toContain('Light.Set {"id":0,"on":true,"brightness":60}');
      await listed(light.prefix, (d) => JSON.stringify(d.state.light) === '{"state":true,"brightness":60}');
      await light.event(0, 'double_push');
      await listed(light.prefix, (d) => d.state.action === 'double_push');
    });

    it('reads sensors and their battery', async () => {
      const sensor = await shelly('HTG3', humidityTemperature());
      await listed(
        sensor.prefix,
        (d) => d.type === 'sensor' && d.state.temperature === 21.6 && d.state.battery === 83,
      );
      await sensor.notify('NotifyStatus', { 'humidity:0': { id: 0, rh: 51 } });
      await listed(sensor.prefix, (d) => d.state.humidity === 51);
    });

    it('answers a command the device refuses with its error, and one it never answers with 504, sending it once', async () => {
      const blind = await shelly('Plus2PM', plus2pmCover());
      const device = await listed(blind.prefix, (d) => d.online);
      const since = new Date().toISOString();
      blind.fail('Cover.GoToPosition', -103, 'Cover not calibrated');
      const refused = await h.command(device.id, { state: { cover: { position: 10 } } });
      expect([refused.statusCode, refused.json().error]).toEqual([
        502,
        'The device refused the command: Cover not calibrated (-103)',
      ]);
      blind.ignore('Cover.Stop');
      const started = Date.now();
      const silent = await h.command(device.id, { state: { cover: { command: 'stop' } } });
      expect([silent.statusCode, silent.json().error]).toEqual([
        504,
        'The device did not answer the command in time',
      ]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
      expect(blind.received.filter((r) => r.startsWith('Cover.Stop'))).toHaveLength(1);
      // The activity log holds both as failed, with the reason the caller got.
      await h.app.activity.flush();
      const admin = await h.token('admin');
      const log = await h.call('GET', `/api/activity?kind=device.command&from=${since}`, undefined, admin);
      expect(
        (log.json().entries as { device_id: string; result: string; detail: { reason?: string } }[])
          .filter((e) => e.device_id === device.id)
          .map((e) => [e.result, e.detail.reason])
          .reverse(),
      ).toEqual([
        ['failed', 'The device refused the command: Cover not calibrated (-103)'],
        ['failed', 'The device did not answer the command in time'],
      ]);
    }, 20_000);

    it('follows <prefix>/online, and removes a device whose online is cleared; it returns with the same id', async () => {
      const relay = await shelly('Plus1PM', plus1pm());
      const first = await listed(relay.prefix, (d) => d.online);
      await relay.offline();
      await listed(relay.prefix, (d) => !d.online);
      await relay.clear();
      await waitFor(
        async () => ((await h.list()).some((d) => d.external_id === relay.prefix) ? undefined : true),
        10_000,
      );
      await relay.online();
      expect((await listed(relay.prefix, (d) => d.online)).id).toBe(first.id);
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
