import type { Device, StreamRefusal } from '@hearth/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { openStream, type StreamView } from '../../test/device-stream.js';
import { eventually } from '../../test/wait.js';
import { ScriptedShelly } from './adapters/shelly/fixtures/scripted-shelly.js';
import { deviceInfo, plus2pmCover } from './adapters/shelly/fixtures/shelly-devices.js';
import { type Household, listenForBrowsers, startHousehold, waitFor } from './devicehub-test-kit.js';

// Issue 35 §3: what the tiles of the new sources rely on. An update's Install is an admin's (a
// resident's install command answers 403 over REST, the stream and the bulk call, and nothing
// reaches the bus), and a command a device itself refuses or never answers (Shelly's RPC) is told
// to the browser that sent it over the stream, as the REST call's 502 and 504 are.

describe.each(testDatabases())('commands of the new sources ($name)', ({ create }) => {
  let database: TestDatabase;
  let h: Household;
  let origin: string;
  let admin: string;
  let resident: string;
  let update: Device;
  const installs: string[] = [];
  const streams: StreamView[] = [];
  const shellies: ScriptedShelly[] = [];
  let watcher: mqtt.MqttClient;

  /** Another client on the bus, as the external user the scripted Zigbee2MQTT signs in as. */
  const busOptions = (): mqtt.IClientOptions => {
    const { host, port, username, password } = h.z2m.client.options;
    return { host, port, username, password, protocolVersion: 4, reconnectPeriod: 0 };
  };

  beforeAll(async () => {
    database = await create();
    ({ household: h } = await startHousehold(database, undefined));
    await h.publishDevicesAndWait(4);
    origin = (await listenForBrowsers(h.app)).replace(/^ws/, 'http').replace(/\/ws\/devicehub$/, '');
    admin = await h.token('admin');
    resident = h.resident;
    watcher = await mqtt.connectAsync(busOptions());
    watcher.on('message', (topic, payload) => installs.push(`${topic} ${payload}`));
    await watcher.subscribeAsync(`${h.haPrefix}/hub/update/install`);
    await h.z2m.client.publishAsync(
      `${h.haPrefix}/update/hub/firmware/config`,
      JSON.stringify({
        name: 'Firmware',
        stat_t: `${h.haPrefix}/hub/update/state`,
        cmd_t: `${h.haPrefix}/hub/update/install`,
        pl_inst: 'install',
        dev: { ids: 'hub-1', name: 'Hub' },
      }),
      { retain: true },
    );
    await waitFor(async () => (await h.list()).find((d) => d.external_id === 'hub-1'), 10_000);
    // A fresh state message: online (the bulk call does not send to offline devices).
    await h.z2m.client.publishAsync(
      `${h.haPrefix}/hub/update/state`,
      JSON.stringify({ installed_version: '1.0.0', latest_version: '1.1.0' }),
    );
    update = await waitFor(
      async () => (await h.list()).find((d) => d.external_id === 'hub-1' && d.online),
      10_000,
    );
  });
  afterAll(async () => {
    for (const stream of streams) stream.end();
    for (const shelly of shellies) {
      await shelly.clear();
      await shelly.close();
    }
    await h?.z2m.client.publishAsync(`${h.haPrefix}/update/hub/firmware/config`, '', { retain: true });
    await watcher?.endAsync();
    await h?.close();
    await database?.drop();
  });

  const install = { input: { id: 'firmware', value: { command: 'install' } } };

  it("answers a resident's install command 403, over REST, the stream and the bulk call, and sends nothing", async () => {
    const rest = await h.command(update.id, install, resident);
    expect([rest.statusCode, rest.json().error]).toEqual([403, 'Only admins may install updates']);
    const bulk = await h.call(
      'POST',
      '/api/devicehub/commands',
      { commands: [{ device_id: update.id, ...install }] },
      resident,
    );
    expect(bulk.json().data.results).toEqual([
      { device_id: update.id, name: 'Hub', outcome: 'refused', error: 'Only admins may install updates' },
    ]);
    const stream = await openStream(origin, h.prefix, resident);
    streams.push(stream);
    await stream.publish('device.set', { device_id: update.id, state: { firmware: { command: 'install' } } });
    await eventually(
      async () => stream.refusals,
      (refusals) => refusals.length === 1,
    );
    expect(stream.refusals).toEqual([
      { kind: 'refused', device_id: update.id, error: 'Only admins may install updates' },
    ]);

    // An admin's goes out: Home Assistant's payload_install on the command topic, once.
    const answer = await h.command(update.id, install, admin);
    expect(answer.statusCode).toBe(200);
    await eventually(
      async () => installs,
      (sent) => sent.length > 0,
    );
    expect(installs).toEqual([`${h.haPrefix}/hub/update/install install`]);
  });

  it('tells the browser that sent a command over the stream that the device refused it or did not answer', async () => {
    const id = `shellyplus2pm-${crypto.randomUUID().slice(0, 12).replace(/-/g, '0')}`;
    const blind = await ScriptedShelly.connect(
      busOptions(),
      `${h.shellyRoot}/${id}`,
      deviceInfo(id, 'Plus2PM'),
      plus2pmCover(),
    );
    shellies.push(blind);
    await blind.online();
    const device = await waitFor(
      async () => (await h.list()).find((d) => d.external_id === blind.prefix && d.online),
      10_000,
    );
    const stream = await openStream(origin, h.prefix, resident);
    streams.push(stream);
    blind.fail('Cover.GoToPosition', -103, 'Cover not calibrated');
    await stream.publish('device.set', { device_id: device.id, state: { cover: { position: 10 } } });
    blind.ignore('Cover.Stop');
    await stream.publish('device.set', { device_id: device.id, state: { cover: { command: 'stop' } } });
    await eventually(
      async () => stream.refusals,
      (replies) => replies.length === 2,
      10_000,
    );
    expect(stream.refusals).toEqual<StreamRefusal[]>([
      {
        kind: 'failed',
        device_id: device.id,
        error: 'The device refused the command: Cover not calibrated (-103)',
      },
      { kind: 'failed', device_id: device.id, error: 'The device did not answer the command in time' },
    ]);
  }, 20_000);
});
