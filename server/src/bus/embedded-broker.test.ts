import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { sqliteDatabase } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';
import { ScriptedZigbee2mqtt } from '../devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { byName, waitFor } from '../devicehub/devicehub-test-kit.js';
import { createLogger } from '../logging/logger.js';
import {
  type EmbeddedBroker,
  generatedCredentials,
  startEmbeddedBroker,
  withinRoots,
} from './embedded-broker.js';

const log = createLogger('silent');
const Z2M = { username: 'zigbee2mqtt', password: 'correct horse battery' };

/** Connects once (no retries) and resolves with the CONNACK's refusal code, or 0 when accepted. */
async function connackCode(url: string, options: IClientOptions = {}): Promise<number | string> {
  try {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000, ...options });
    await client.endAsync(true);
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

const connect = (url: string, options: IClientOptions = {}) =>
  mqtt.connectAsync(url, { reconnectPeriod: 0, protocolVersion: 4, ...options });

/** A self-signed certificate for 127.0.0.1, made by openssl for this test only. */
function selfSignedCertificate(dir: string) {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

describe('withinRoots', () => {
  it.each([
    ['zigbee2mqtt', true],
    ['zigbee2mqtt/#', true],
    ['zigbee2mqtt/Lamp/set', true],
    ['zigbee2mqtt/+/availability', true],
    ['homeassistant/light/x/config', true],
    ['#', false],
    ['+/bridge/devices', false],
    ['zigbee2mqttx/a', false],
    ['hearth/devicehub/events/hub.status', false],
    ['$SYS/broker', false],
  ])('%s → %s', (topic, allowed) => {
    expect(withinRoots(topic, ['zigbee2mqtt', 'homeassistant'])).toBe(allowed);
  });
});

describe('the embedded broker requires credentials on every listener', () => {
  let broker: EmbeddedBroker;
  let tlsDir: string;
  let tlsFiles: { cert: string; key: string };
  const internal = generatedCredentials();
  const external = () => `mqtt://127.0.0.1:${broker.port}`;
  const tlsUrl = () => `mqtts://127.0.0.1:${broker.tlsPort}`;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tls-'));
    tlsFiles = selfSignedCertificate(tlsDir);
    broker = await startEmbeddedBroker({
      internal,
      external: {
        host: '127.0.0.1',
        port: await freePort(),
        tls: {
          port: await freePort(),
          cert: fs.readFileSync(tlsFiles.cert),
          key: fs.readFileSync(tlsFiles.key),
        },
        credentials: Z2M,
        topicRoots: ['zigbee2mqtt', 'homeassistant'],
      },
      log,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await broker?.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  });

  it('refuses anonymous and wrong credentials with "not authorized" (5), on the internal port and MQTT_LISTEN_PORT', async () => {
    for (const url of [broker.url, external()]) {
      expect(await connackCode(url), `${url} anonymous`).toBe(5);
      expect(await connackCode(url, { username: Z2M.username }), `${url} no password`).toBe(5);
      expect(await connackCode(url, { username: Z2M.username, password: 'wrong' }), `${url} wrong`).toBe(5);
      expect(
        await connackCode(url, { username: 'hearth', password: Z2M.password }),
        `${url} wrong user`,
      ).toBe(5);
      expect(await connackCode(url, { protocolVersion: 3 }), `${url} MQTT 3.1 anonymous`).toBe(5);
    }
    // Each listener has its own user: Zigbee2MQTT's credentials don't open the internal port, nor
    // Hearth's own the external one.
    expect(await connackCode(broker.url, Z2M)).toBe(5);
    expect(await connackCode(external(), internal)).toBe(5);
    expect(await connackCode(broker.url, internal)).toBe(0);
    expect(await connackCode(external(), Z2M)).toBe(0);
  });

  it('binds the internal port to loopback only', () => {
    expect(new URL(broker.url).hostname).toBe('127.0.0.1');
  });

  it('lets Zigbee2MQTT publish and subscribe under its topics, and nowhere else', async () => {
    const hub = await connect(broker.url, internal);
    const z2m = await connect(external(), Z2M);
    clients.push(hub, z2m);
    const toHub: string[] = [];
    const toZ2m: string[] = [];
    hub.on('message', (topic, payload) => toHub.push(`${topic}=${payload}`));
    z2m.on('message', (topic, payload) => toZ2m.push(`${topic}=${payload}`));
    await hub.subscribeAsync('#');

    // MQTT.js rejects a SUBACK that refuses a filter (0x80); each filter is asked on its own.
    const grant = (filter: string) =>
      z2m.subscribeAsync(filter).then(
        (granted) => granted[0]?.qos,
        (error: Error) => (error.message.startsWith('Subscribe error') ? 128 : error.message),
      );
    const filters = ['zigbee2mqtt/+/set', '#', 'hearth/#', '+/bridge/devices', 'homeassistant/status'];
    const granted: Record<string, unknown> = {};
    for (const filter of filters) granted[filter] = await grant(filter);
    expect(granted).toEqual({
      'zigbee2mqtt/+/set': 0,
      '#': 128,
      'hearth/#': 128,
      '+/bridge/devices': 128,
      'homeassistant/status': 0,
    });
    expect(z2m.connected).toBe(true);
    await z2m.publishAsync('zigbee2mqtt/Lamp', '{"state":"ON"}');
    await hub.publishAsync('zigbee2mqtt/Lamp/set', '{"state":"OFF"}');
    await hub.publishAsync('hearth/devicehub/events/hub.status', '{"bus":"online"}');
    await hub.publishAsync('homeassistant/status', 'online');
    await waitFor(() => toZ2m.length >= 2 && toHub.some((m) => m.startsWith('zigbee2mqtt/Lamp=')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(toZ2m).toEqual(['zigbee2mqtt/Lamp/set={"state":"OFF"}', 'homeassistant/status=online']);
    expect(toHub).toContain('zigbee2mqtt/Lamp={"state":"ON"}');

    // Outside its topics a publish ends the connection (MQTT 3.1.1 has no other refusal) and
    // reaches nobody.
    const closed = new Promise<void>((resolve) => z2m.once('close', () => resolve()));
    z2m.publish('hearth/devicehub/events/hub.status', '{"bus":"offline"}');
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(toHub.filter((m) => m.includes('"offline"'))).toEqual([]);
  });

  it('speaks MQTT over TLS on MQTT_LISTEN_TLS_PORT, with the same credentials', async () => {
    const ca = fs.readFileSync(tlsFiles.cert);
    expect(await connackCode(tlsUrl(), { ca })).toBe(5);
    expect(await connackCode(tlsUrl(), { ca, username: Z2M.username, password: 'wrong' })).toBe(5);
    const z2m = await connect(tlsUrl(), { ca, ...Z2M });
    clients.push(z2m);
    const hub = await connect(broker.url, internal);
    clients.push(hub);
    const got = new Promise<string>((resolve) =>
      hub.on('message', (_t, payload) => resolve(payload.toString())),
    );
    await hub.subscribeAsync('zigbee2mqtt/tls-check');
    await z2m.publishAsync('zigbee2mqtt/tls-check', 'over tls');
    expect(await got).toBe('over tls');
    // A client that does not trust the certificate gets nowhere.
    expect(await connackCode(tlsUrl(), Z2M)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

describe('Hearth as the broker for Zigbee2MQTT (MQTT_LISTEN_PORT)', () => {
  const database = sqliteDatabase();
  let hearth: TestApp | undefined;
  afterAll(async () => {
    await hearth?.close();
    await database.drop();
  });

  it('generates the listener credentials once, logs them that once, and keeps them in DATA_DIR (0600)', async () => {
    const port = await freePort();
    const env = { MQTT_LISTEN_PORT: String(port) };
    hearth = await startTestApp(database, env);
    const { dataDir } = hearth.config;
    const file = path.join(dataDir, 'secrets', 'mqtt-listen-password');
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, 'secrets', 'bus-password')).mode & 0o777).toBe(0o600);
    const shown = hearth.logs.lines.map((line) => JSON.parse(line)).filter((line) => line.mqttPassword);
    expect(shown).toEqual([expect.objectContaining({ mqttUsername: 'zigbee2mqtt', mqttPassword: password })]);
    const listening = hearth.logs.lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'embedded MQTT broker listening');
    expect(listening).toMatchObject({ host: '127.0.0.1', port });
    expect(hearth.bus.connected).toBe(true);

    const url = `mqtt://127.0.0.1:${port}`;
    expect(await connackCode(url)).toBe(5);
    expect(await connackCode(url, { username: 'zigbee2mqtt', password })).toBe(0);

    // After a restart: the same credentials (Zigbee2MQTT's configuration stays right), not logged again.
    await hearth.close();
    hearth = await startTestApp(database, env);
    expect(hearth.logs.text).not.toContain(password);
    expect(await connackCode(url, { username: 'zigbee2mqtt', password })).toBe(0);
    await hearth.close();
    hearth = undefined;
  });

  it('serves a Zigbee2MQTT that signs in with MQTT_LISTEN_USERNAME/PASSWORD: device list → tiles with state', async () => {
    const port = await freePort();
    hearth = await startTestApp(database, {
      MQTT_LISTEN_PORT: String(port),
      MQTT_LISTEN_USERNAME: Z2M.username,
      MQTT_LISTEN_PASSWORD: Z2M.password,
    });
    expect(await connackCode(`mqtt://127.0.0.1:${port}`)).toBe(5);
    const z2m = await ScriptedZigbee2mqtt.connect(
      `mqtt://${Z2M.username}:${encodeURIComponent(Z2M.password)}@127.0.0.1:${port}`,
      'zigbee2mqtt',
    );
    try {
      await z2m.publishDevices();
      await z2m.publish('Living room/Lamp/availability', { state: 'online' }, true);
      await z2m.publish('Living room/Lamp', { state: 'ON', brightness: 200 });
      const token = await accessToken(hearth, await createUser(hearth, 'resident'));
      const lamp = await waitFor(async () => {
        const response = await hearth!.app.inject({
          url: '/api/devicehub/devices',
          headers: { authorization: `Bearer ${token}` },
        });
        const found = byName(response.json(), 'Living room/Lamp');
        return found?.online && found.state.state === 'ON' ? found : undefined;
      });
      expect(lamp.state).toMatchObject({ state: 'ON', brightness: 200 });
    } finally {
      await z2m.close();
    }
  });
});
