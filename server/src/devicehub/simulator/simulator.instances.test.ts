import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Device } from '@hearth/contracts';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../../test/app.js';
import { postgresDatabase } from '../../../test/databases.js';
import { serviceUrl } from '../../../test/services.js';
import { waitFor } from '../devicehub-test-kit.js';
import { SIMULATOR_MARKER } from './simulator.js';

const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const mqttUrl = serviceUrl('TEST_MQTT_URL');

// Several instances on one PostgreSQL database and one Mosquitto, each with SIMULATOR=on.
describe.runIf(databaseUrl && mqttUrl)('the simulator with several instances on one bus', () => {
  it('runs on one instance only, keeps renames in the registry, and another takes over when it stops', async () => {
    const database = await postgresDatabase(databaseUrl!);
    const unique = crypto.randomUUID().slice(0, 8);
    const env = (n: string) => ({
      SIMULATOR: 'on',
      SIMULATOR_DEVICES: '6',
      MQTT_URL: mqttUrl!,
      ZIGBEE2MQTT_BASE_TOPIC: `z2m-sim-${unique}`,
      DEVICEHUB_TOPIC_PREFIX: `hearth-sim-${unique}-${n}`,
    });
    const apps: TestApp[] = [];
    const dataDirs: string[] = [];
    const start = async (n: string) => {
      // Each instance with a DATA_DIR of its own, as on separate machines.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-sim-${n}-`));
      dataDirs.push(dataDir);
      const app = await startTestApp(
        { ...database, appOptions: () => ({ ...database.appOptions(), dataDir }) },
        env(n),
      );
      apps.push(app);
      return app;
    };
    const list = async (app: TestApp): Promise<Device[]> => {
      const token = await accessToken(app, await createUser(app, 'resident'));
      return (
        await app.app.inject({ url: '/api/devicehub/devices', headers: { authorization: `Bearer ${token}` } })
      ).json();
    };
    const command = async (app: TestApp, id: string) => {
      const token = await accessToken(app, await createUser(app, 'resident'));
      const response = await app.app.inject({
        method: 'POST',
        url: `/api/devicehub/devices/${id}/commands`,
        headers: { authorization: `Bearer ${token}` },
        payload: { state: { on: true } },
      });
      return [response.statusCode, response.json().error ?? response.json().data.status];
    };
    try {
      const a = await start('a');
      await waitFor(async () => (await list(a)).length === 6, 15_000);
      const b = await start('b');
      await waitFor(() => b.logs.text.includes('stands by'), 5000);
      expect(a.logs.text).not.toContain('stands by');

      // Renamed through B: the simulator on A answers, the registry keeps it.
      const lamp = (await list(b)).find((d) => d.inputs.some((i) => i.id === 'state'))!;
      const token = await accessToken(b, await createUser(b, 'resident'));
      const renamed = await b.app.inject({
        method: 'PATCH',
        url: `/api/devicehub/devices/${lamp.id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'Renamed through B' },
      });
      expect(renamed.statusCode).toBe(200);

      // A stops: it says the bridge is offline (B's hub answers 503 meanwhile), which B's simulator
      // takes as its cue: it takes over at once, keeping the name.
      await a.close();
      const stoppedAt = Date.now();
      await waitFor(() => b.logs.text.includes('this one takes over'), 10_000);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(b.logs.text).toMatch(/"bridge":"offline".*"msg":"zigbee2mqtt bridge state"/);
      await waitFor(async () => ((await command(b, lamp.id))[0] === 200 ? true : undefined), 10_000);
      const names = (await list(b)).map((d) => d.name);
      expect(names).toContain('Renamed through B');
      expect(names).toHaveLength(6);
    } finally {
      for (const app of apps) await app.close();
      // Clear what the simulators left retained on the shared broker.
      const client = await mqtt.connectAsync(mqttUrl!);
      for (const suffix of ['bridge/devices', 'bridge/state', SIMULATOR_MARKER])
        await client.publishAsync(`z2m-sim-${unique}/${suffix}`, '', { retain: true });
      await client.endAsync();
      await database.drop();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
