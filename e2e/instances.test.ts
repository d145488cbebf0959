import fs from 'node:fs';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedZigbee2mqtt } from '../server/src/devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { serviceUrl } from '../server/test/services.js';
import { waitFor as poll } from '../server/test/wait.js';
import { launchBrowser } from './support/browser.js';
import { nginxBinary, type RunningNginx, startNginx } from './support/nginx.js';
import { freePort, type RunningServer, startServer } from './support/server.js';

// The writer lease's log lines (server/src/devicehub/writer-lease.ts).
const WRITES = 'device state writer: this instance writes device state';
const STOPS_WRITING = 'device state writer: this instance no longer writes device state';

import { type Account, openSignedIn } from './support/settings.page.js';

/**
 * Issue 17 acceptance 1: two built instances on one PostgreSQL database (a fresh one per run) and
 * Mosquitto, behind a real nginx that spreads requests over both, as the README's "Running
 * several instances" section sets them up. Each test poses as its own client address
 * (X-Forwarded-For, trusted from nginx through TRUST_PROXY) so the auth rate limit of one test
 * does not spill into another.
 */
const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const mqttUrl = serviceUrl('TEST_MQTT_URL');
const nginx = nginxBinary();
if (!nginx && process.env.REQUIRE_SERVICES === '1') {
  throw new Error('nginx is not installed but REQUIRE_SERVICES=1 (.ci/run installs it)');
}
const RATE_LIMIT = 12;
const unique = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
const BASE = `z2m-e2e-${unique}`;
const PREFIX = `hearth-e2e-${unique}`;

type Json = Record<string, unknown> & { error?: string };

describe.runIf(databaseUrl && mqttUrl && nginx)(
  'two instances behind nginx on one PostgreSQL and Mosquitto',
  () => {
    const database = `hearth_e2e_${unique}`;
    let instanceUrl: string;
    const ports: number[] = [];
    const servers: (RunningServer | undefined)[] = [];
    let proxy: RunningNginx;
    let z2m: ScriptedZigbee2mqtt;
    let adminPassword: string;
    const adminEmail = 'admin@example.test';
    let clients = 0;
    /** A client address of its own (see above). */
    const newClient = () => `198.51.100.${++clients}`;

    const env = () => ({
      DATABASE_URL: instanceUrl,
      MQTT_URL: mqttUrl!,
      SIMULATOR: 'off',
      ZIGBEE2MQTT_BASE_TOPIC: BASE,
      DEVICEHUB_TOPIC_PREFIX: PREFIX,
      TRUST_PROXY: 'loopback',
      AUTH_RATE_LIMIT: String(RATE_LIMIT),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'info',
      // No AUTH_SECRET: the two must agree through the database.
    });
    const startInstance = async (index: number) => {
      servers[index] = await startServer({ ...env(), PORT: String(ports[index]) });
      return servers[index];
    };
    const direct = (index: number) => `http://127.0.0.1:${ports[index]}`;

    async function call(
      base: string,
      method: string,
      route: string,
      options: { body?: unknown; token?: string; client?: string } = {},
    ): Promise<{ status: number; body: Json; headers: Headers }> {
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${base}${route}`, {
          method,
          headers: {
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...(options.client ? { 'x-forwarded-for': options.client } : {}),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        });
        text = await response.text();
      } catch (error) {
        // Unanswered: say why, with what nginx saw (e.g. an instance that died mid-answer).
        const cause = (error as { cause?: unknown }).cause;
        throw new Error(
          `${method} ${route} got no answer: ${String(cause ?? error)}${base === proxy?.url ? `\nnginx:\n${proxy.errors()}` : ''}`,
        );
      }
      let body: Json = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = { text };
      }
      return { status: response.status, body, headers: response.headers };
    }
    const login = async (base: string, email: string, password: string, client = newClient()) =>
      call(base, 'POST', '/api/auth/login/start', { body: { email, password }, client });
    const adminToken = async (base: string) => {
      const answer = await login(base, adminEmail, adminPassword);
      expect(answer.status).toBe(200);
      return answer.body.access_token as string;
    };
    /** The simulator's reading lamp, as the device list through nginx names it. */
    const readingLamp = async (token: string) =>
      (
        (await call(proxy.url, 'GET', '/api/devicehub/devices', { token })).body as unknown as {
          id: string;
          name: string;
        }[]
      ).find((device) => device.name === 'Reading lamp')!;
    const waitFor = <T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000) =>
      poll(probe, timeoutMs, 100);

    beforeAll(async () => {
      adminPassword = `Admin-${unique}-Pass`;
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      const url = new URL(databaseUrl!);
      url.pathname = `/${database}`;
      instanceUrl = url.toString();
      ports.push(await freePort(), await freePort());
      // Both at once: migrations and the generated AUTH_SECRET race as they would in production.
      await Promise.all([startInstance(0), startInstance(1)]);
      proxy = await startNginx(nginx!, await freePort(), ports);
      z2m = await ScriptedZigbee2mqtt.connect(mqttUrl!, BASE);
      // Like Zigbee2MQTT: a command's new state comes back on the device's topic.
      z2m.client.on('message', (topic, payload) => {
        if (!topic.endsWith('/set')) return;
        const name = topic.slice(BASE.length + 1, -'/set'.length);
        void z2m.publish(name, { ...JSON.parse(payload.toString()), last_seen: new Date().toISOString() });
      });
      await z2m.publish('bridge/state', { state: 'online' }, true);
      await z2m.publishDevices();
    }, 120_000);

    afterAll(async () => {
      if (z2m) {
        await z2m.publish('bridge/state', '', true);
        await z2m.publish('Living room/Lamp/availability', '', true);
        await z2m.close();
      }
      await proxy?.stop();
      for (const server of servers) {
        await server?.stop();
        if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
      if (instanceUrl) {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${database} with (force)`);
        await admin.end();
      }
    }, 60_000);

    it('spreads requests over both instances', async () => {
      // Addresses nobody serves (404), each named once: whichever instance answered logs it.
      const marks = Array.from({ length: 10 }, (_, index) => `/api/spread-${unique}-${index}`);
      for (const mark of marks) expect((await fetch(`${proxy.url}${mark}`)).status).toBe(404);
      const servedBy = () =>
        servers.map((server) => marks.filter((mark) => server!.output().includes(mark)).length);
      // A log line comes through the instance's stdout pipe, which can trail its answer.
      await poll(() => servedBy().reduce((sum, count) => sum + count, 0) === marks.length, 5000).catch(
        () => undefined,
      );
      const served = servedBy();
      expect(served[0]).toBeGreaterThan(0);
      expect(served[1]).toBeGreaterThan(0);
      expect(served[0]! + served[1]!).toBe(marks.length);
      expect(proxy.errors()).not.toMatch(/\[(error|crit|emerg)\]/);
    });

    it('signs in on one, refreshes on the other, and a reused refresh token is refused on either', async () => {
      const client = newClient();
      const me = async (on: string, token: unknown) =>
        (await call(on, 'GET', '/api/auth/me', { token: token as string })).status;
      const refresh = (on: string, token: unknown) =>
        call(on, 'POST', '/api/auth/refresh', { body: { refresh_token: token }, client });
      const signedIn = await login(direct(0), adminEmail, adminPassword, client);
      expect(signedIn.status).toBe(200);
      // Two instances without AUTH_SECRET accept each other's tokens.
      expect(await me(direct(1), signedIn.body.access_token)).toBe(200);
      const refreshed = await refresh(direct(1), signedIn.body.refresh_token);
      expect(refreshed.status).toBe(200);
      expect(await me(direct(0), refreshed.body.access_token)).toBe(200);
      // The rotated token again at once, on the first instance: two tabs at once get the same answer.
      const twice = await refresh(direct(0), signedIn.body.refresh_token);
      expect(twice.status).toBe(200);
      expect(twice.body.refresh_token).toBe(refreshed.body.refresh_token);
      // After the 5 s grace it is reuse: the whole family ends, on both instances.
      await new Promise((resolve) => setTimeout(resolve, 5500));
      expect((await refresh(direct(0), signedIn.body.refresh_token)).status).toBe(401);
      expect((await refresh(direct(1), refreshed.body.refresh_token)).status).toBe(401);
      expect(await me(direct(1), refreshed.body.access_token)).toBe(401);
    }, 20_000);

    it('locks an address after 5 wrong passwords spread over both instances', async () => {
      const token = await adminToken(proxy.url);
      const email = `lock-${unique}@example.test`;
      const password = `Lock-${unique}-Pass`;
      const created = await call(proxy.url, 'POST', '/api/auth/signup', {
        body: { email, password, first_name: 'Lock', last_name: 'Test', user_name: `lock${unique}` },
        client: newClient(),
      });
      expect(created.status).toBeLessThan(300);
      expect(token).toBeTruthy();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        statuses.push((await login(direct(attempt % 2), email, 'wrong-password-1', newClient())).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 423]);
      // The right password, on either instance or through nginx: still locked.
      for (const base of [direct(0), direct(1), proxy.url]) {
        expect((await login(base, email, password, newClient())).status).toBe(423);
      }
    });

    it('serves a picture uploaded through one instance from the other, and forgets the replaced one', async () => {
      const token = await adminToken(proxy.url);
      const generated = await call(direct(0), 'POST', '/api/auth/profile/generate-avatar', { token });
      expect(generated.status).toBe(200);
      const picture = generated.body.profile_picture_url as string;
      const served = await fetch(`${direct(1)}${picture}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('cache-control')).toBe('private, max-age=86400');
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      // /me on the second instance hands out the same address, which it serves.
      expect((await call(direct(1), 'GET', '/api/auth/me', { token })).body.profile_picture_url).toBe(
        picture,
      );
      const replaced = await call(direct(1), 'POST', '/api/auth/profile/generate-avatar', { token });
      expect(replaced.status).toBe(200);
      for (const base of [direct(0), direct(1)]) {
        expect((await fetch(`${base}${picture}`)).status).toBe(404);
        expect((await fetch(`${base}${replaced.body.profile_picture_url}`)).status).toBe(200);
      }
    });

    it('counts the auth rate limit across both instances and after a restart of both', async () => {
      const client = newClient();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < RATE_LIMIT + 2; attempt++) {
        // Through nginx (both instances take turns) and directly, alternately.
        const base = attempt % 3 === 0 ? direct(attempt % 2) : proxy.url;
        statuses.push(
          (await login(base, `nobody-${attempt}@example.test`, 'wrong-password-1', client)).status,
        );
      }
      expect(statuses.slice(0, RATE_LIMIT).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429]);

      await Promise.all([servers[0]!.stop(), servers[1]!.stop()]);
      await Promise.all([startInstance(0), startInstance(1)]);
      for (const base of [direct(0), direct(1), proxy.url]) {
        const again = await login(base, 'nobody@example.test', 'wrong-password-1', client);
        expect(again.status).toBe(429);
      }
      // Another client is not held back.
      expect((await login(proxy.url, 'nobody@example.test', 'wrong-password-1', newClient())).status).toBe(
        401,
      );
    }, 90_000);

    it('shows the same devices, names, online flags and last seen on both instances', async () => {
      const token = await adminToken(proxy.url);
      const list = async (index: number) =>
        (await call(direct(index), 'GET', '/api/devicehub/devices', { token })).body as unknown as {
          id: string;
          name: string;
          online: boolean;
          last_seen: string | null;
        }[];
      const view = async (index: number) =>
        (await list(index))
          .map(({ id, name, online, last_seen }) => ({ id, name, online, last_seen }))
          .sort((a, b) => a.name.localeCompare(b.name));
      await waitFor(async () => (await list(0)).length === 4 && (await list(1)).length === 4);
      await z2m.publish('Living room/Lamp/availability', { state: 'online' }, true);
      // The front door reports no availability: a fresh message is what makes it online.
      await z2m.publish('Front door', { contact: true, last_seen: '2026-11-24T07:00:00.000Z' });
      const lamp = (await list(0)).find((device) => device.name === 'Living room/Lamp')!;
      const renamed = await call(direct(0), 'PATCH', `/api/devicehub/devices/${lamp.id}`, {
        token,
        body: { name: 'Reading lamp' },
      });
      expect(renamed.status).toBe(200);
      // As Zigbee2MQTT does after a rename: availability moves to the new name.
      await z2m.publish('Living room/Lamp/availability', '', true);
      await z2m.publish('Reading lamp/availability', { state: 'online' }, true);
      let last: unknown;
      const agreed = await waitFor(async () => {
        const [a, b] = [await view(0), await view(1)];
        last = [a, b];
        const door = a.find((device) => device.name === 'Front door');
        return JSON.stringify(a) === JSON.stringify(b) &&
          door?.online &&
          b.some((d) => d.name === 'Reading lamp')
          ? a
          : undefined;
      });
      expect(agreed.find((device) => device.name === 'Front door')).toMatchObject({
        online: true,
        last_seen: '2026-11-24T07:00:00.000Z',
      });
      expect(agreed.find((device) => device.name === 'Reading lamp')).toMatchObject({
        id: lamp.id,
        online: true,
      });

      // An instance started afterwards heard none of it on the bus: it shows the registry's view,
      // also when it takes the writer lock itself. That happens when the writer is restarted inside
      // the hand-over window (the survivor polls every second, a loaded machine later): here the
      // survivor is held (SIGSTOP) until the restarted writer says it writes, so it does every run.
      const writing = (server: RunningServer | undefined) => {
        const output = server?.output() ?? '';
        return output.lastIndexOf(WRITES) > output.lastIndexOf(STOPS_WRITING);
      };
      const writer = await waitFor(async () => {
        const index = servers.findIndex(writing);
        return index === -1 ? undefined : { index };
      });
      const survivor = servers[1 - writer.index]!;
      survivor.process.kill('SIGSTOP');
      try {
        await servers[writer.index]!.stop();
        const restarted = await startInstance(writer.index);
        await waitFor(async () => restarted?.output().includes(WRITES), 15_000);
      } finally {
        survivor.process.kill('SIGCONT');
      }
      const late = await waitFor(async () => {
        const [a, b] = [await view(0), await view(1)];
        last = [a, b];
        return JSON.stringify(a) === JSON.stringify(b) ? b : undefined;
      }).catch((error) => {
        console.log(JSON.stringify(last, null, 1));
        throw error;
      });
      expect(late.find((device) => device.name === 'Front door')).toMatchObject({
        online: true,
        last_seen: '2026-11-24T07:00:00.000Z',
      });
    }, 60_000);

    it('delivers a command sent through either instance to a browser stream opened through nginx', async () => {
      const token = await adminToken(proxy.url);
      const lamp = await readingLamp(token);
      const stream = await mqtt.connectAsync(`${proxy.url.replace('http', 'ws')}/ws/devicehub`, {
        protocolVersion: 4,
        reconnectPeriod: 0,
        username: 'browser',
        password: token,
        clientId: `e2e-${unique}`,
      });
      try {
        const seen: Record<string, unknown>[] = [];
        stream.on('message', (_topic, payload) => {
          if (payload.length) seen.push(JSON.parse(payload.toString()));
        });
        await stream.subscribeAsync(`${PREFIX}/devicehub/devices/${lamp.id}`);
        for (const [index, brightness] of [
          [0, 11],
          [1, 22],
        ] as const) {
          const sent = await call(direct(index), 'POST', `/api/devicehub/devices/${lamp.id}/commands`, {
            token,
            body: { state: { brightness } },
          });
          expect(sent.status).toBe(200);
          await waitFor(async () => seen.some((state) => state.brightness === brightness), 5000);
        }
      } finally {
        await stream.endAsync();
      }
    });

    it('answers commands 503 and says "Device bridge offline" on the Devices page while Zigbee2MQTT is offline (acceptance 2)', async () => {
      const token = await adminToken(proxy.url);
      const me = (await call(proxy.url, 'GET', '/api/auth/me', { token })).body as unknown as Account;
      const lamp = await readingLamp(token);
      const browser = await launchBrowser();
      try {
        const { page, errors } = await openSignedIn(
          browser,
          proxy.url,
          { ...me, email: adminEmail, password: adminPassword, accessToken: token },
          '/devices',
        );
        await page.getByText('Reading lamp').first().waitFor({ timeout: 10_000 });
        // The notice comes over the device stream: wait until it is connected.
        await page.getByText('State: connected').waitFor({ timeout: 15_000 });
        expect(await page.getByText('Device bridge offline').count()).toBe(0);
        await z2m.publish('bridge/state', { state: 'offline' }, true);
        await page
          .getByText('Device bridge offline')
          .waitFor({ timeout: 10_000 })
          .catch(async (error) => {
            console.log(await page.locator('body').innerText(), errors);
            throw error;
          });
        for (const index of [0, 1]) {
          // The page's instance has heard it; the other hears the same message on its own (a loaded
          // machine can hold one back a moment).
          await waitFor(
            async () =>
              (await call(direct(index), 'GET', '/api/devicehub/status', { token })).body.bridge ===
              'offline',
          );
          const refused = await call(direct(index), 'POST', `/api/devicehub/devices/${lamp.id}/commands`, {
            token,
            body: { state: { brightness: 5 } },
          });
          expect([refused.status, refused.body.error]).toEqual([503, 'Device bridge offline']);
        }
        await z2m.publish('bridge/state', { state: 'online' }, true);
        await page.getByText('Device bridge offline').waitFor({ state: 'detached', timeout: 10_000 });
        const sent = await call(proxy.url, 'POST', `/api/devicehub/devices/${lamp.id}/commands`, {
          token,
          body: { state: { brightness: 6 } },
        });
        expect(sent.status).toBe(200);
        expect(errors).toEqual([]);
      } finally {
        await z2m.publish('bridge/state', { state: 'online' }, true);
        await browser.close();
      }
    }, 60_000);

    it('loses nothing when one instance is killed: nginx retries on the other', async () => {
      const token = await adminToken(proxy.url);
      const lamp = await readingLamp(token);
      // Each request's answer, or "no answer" when its connection was cut.
      const answered: { route: string; sentAt: number; status: number | 'no answer' }[] = [];
      const send = (method: string, route: string, options: Parameters<typeof call>[3]) => {
        const sentAt = Date.now();
        const entry: (typeof answered)[number] = { route, sentAt, status: 'no answer' };
        answered.push(entry);
        return call(proxy.url, method, route, options).then(
          (answer) => {
            entry.status = answer.status;
            return entry;
          },
          () => entry,
        );
      };
      const signups: {
        email: string;
        password: string;
        body: Record<string, string>;
        client: string;
        answer: (typeof answered)[number];
      }[] = [];
      const traffic = (async () => {
        for (let round = 0; round < 40; round++) {
          const person = {
            email: `kill-${round}-${unique}@example.test`,
            password: `Kill-${round}-${unique}`,
          };
          const signup = {
            ...person,
            body: {
              ...person,
              first_name: 'Kill',
              last_name: `Round${round}`,
              user_name: `kill${round}${unique}`,
            },
            client: newClient(),
          };
          const [, , , signedUp] = await Promise.all([
            send('GET', '/api/auth/me', { token }),
            send('GET', '/api/devicehub/devices', { token }),
            send('POST', `/api/devicehub/devices/${lamp.id}/commands`, {
              token,
              body: { state: { brightness: round + 1 } },
            }),
            round % 4 === 0
              ? send('POST', '/api/auth/signup', { body: signup.body, client: signup.client })
              : undefined,
          ]);
          if (signedUp) signups.push({ ...signup, answer: signedUp });
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const killedAt = Date.now();
      servers[0]!.process.kill('SIGKILL');
      await traffic;
      // Every answer is a success. An answer the killed instance was writing when it died cannot be
      // retried by nginx (part of it had gone out): only requests sent before the kill may go
      // unanswered, at most one round of them (4).
      expect(answered.filter((entry) => entry.status !== 'no answer' && entry.status >= 300)).toEqual([]);
      const unanswered = answered.filter((entry) => entry.status === 'no answer');
      expect(unanswered.filter((entry) => entry.sentAt > killedAt)).toEqual([]);
      expect(unanswered.length).toBeLessThanOrEqual(4);
      // Every answered sign-up is there and signs in through nginx (only the other answers); one that
      // got no answer is sent again, as its person would, and answers 201 (docs/api.md#sign-up).
      for (const signup of signups) {
        if (signup.answer.status !== 'no answer') {
          expect((await login(proxy.url, signup.email, signup.password)).status).toBe(200);
          continue;
        }
        const again = await call(proxy.url, 'POST', '/api/auth/signup', {
          body: signup.body,
          client: signup.client,
        });
        expect(again.status).toBe(201);
        expect((await login(proxy.url, signup.email, signup.password)).status).toBe(200);
      }
      await servers[0]!.exited;
      // Device state is still written: the survivor holds the writer lock now (the killed one's
      // session ended with its connection), within 5 s.
      const exitedAt = Date.now();
      await z2m.publish('Front door', { contact: false, last_seen: '2026-11-24T07:30:00.000Z' });
      const registry = new pg.Client({ connectionString: instanceUrl });
      await registry.connect();
      try {
        await waitFor(async () => {
          const { rows } = await registry.query(
            "select s.last_seen from devicehub_states s join devicehub_devices d on d.id = s.device_id where d.name = 'Front door'",
          );
          return rows[0]?.last_seen === '2026-11-24T07:30:00.000Z';
        }, 5000);
        expect(Date.now() - exitedAt).toBeLessThan(5000);
      } finally {
        await registry.end();
      }
    }, 60_000);
  },
);

/**
 * Issue 33 item 1: two built instances with SIMULATOR=on on one PostgreSQL database and Mosquitto.
 * One runs the simulator, the other's stands by. The one running it is killed: its last will says
 * `bridge/state` offline at once, so commands through the other answer 503 instead of "sent" into
 * the void, and the standby takes over within 5 s (issue 17).
 */
describe.runIf(databaseUrl && mqttUrl)(
  'two instances with the simulator on one PostgreSQL and Mosquitto',
  () => {
    const database = `hearth_e2e_sim_${unique}`;
    const base = `z2m-e2e-sim-${unique}`;
    const prefix = `hearth-e2e-sim-${unique}`;
    const adminEmail = 'admin@example.test';
    const adminPassword = `Admin-${unique}-Sim`;
    let instanceUrl: string;
    const servers: RunningServer[] = [];
    const names: string[] = [];

    const start = async () => {
      const server = await startServer({
        DATABASE_URL: instanceUrl,
        MQTT_URL: mqttUrl!,
        SIMULATOR: 'on',
        SIMULATOR_DEVICES: '6',
        ZIGBEE2MQTT_BASE_TOPIC: base,
        DEVICEHUB_TOPIC_PREFIX: prefix,
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: adminPassword,
        LOG_LEVEL: 'info',
      });
      servers.push(server);
      return server;
    };
    const api = async (
      server: RunningServer,
      method: string,
      route: string,
      token?: string,
      body?: unknown,
    ) => {
      const response = await fetch(`http://127.0.0.1:${server.port}${route}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      const url = new URL(databaseUrl!);
      url.pathname = `/${database}`;
      instanceUrl = url.toString();
      // The first one's simulator runs; the second, started after it, stands by.
      const first = await start();
      await poll(async () => first.output().includes('simulator started'), 15_000);
      const second = await start();
      await poll(async () => second.output().includes('stands by'), 15_000);
    }, 90_000);

    afterAll(async () => {
      for (const server of servers) {
        await server.stop();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
      // What the simulators left retained on the shared broker.
      const client = await mqtt.connectAsync(mqttUrl!);
      for (const suffix of [
        'bridge/devices',
        'bridge/state',
        'bridge/hearth/simulator',
        ...names.map((n) => `${n}/availability`),
      ])
        await client.publishAsync(`${base}/${suffix}`, '', { retain: true });
      await client.endAsync();
      if (instanceUrl) {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${database} with (force)`);
        await admin.end();
      }
    }, 60_000);

    it('answers 503 "Device bridge offline" once the instance running the simulator is killed, and the standby takes over within 5 s', async () => {
      const [running, standby] = servers as [RunningServer, RunningServer];
      const signedIn = await api(standby, 'POST', '/api/auth/login/start', undefined, {
        email: adminEmail,
        password: adminPassword,
      });
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.access_token as string;
      const devices = (await api(standby, 'GET', '/api/devicehub/devices', token)).body as unknown as {
        id: string;
        name: string;
        inputs: { id: string }[];
      }[];
      names.push(...devices.map((device) => device.name));
      const lamp = devices.find((device) => device.inputs.some((input) => input.id === 'brightness'))!;
      const command = (brightness: number) =>
        api(standby, 'POST', `/api/devicehub/devices/${lamp.id}/commands`, token, { state: { brightness } });

      // The standby's own stream: its hub status (the bridge as its adapter sees it) and the states.
      const stream = await mqtt.connectAsync(`ws://127.0.0.1:${standby.port}/ws/devicehub`, {
        protocolVersion: 4,
        reconnectPeriod: 0,
        username: 'browser',
        password: token,
        clientId: `e2e-sim-${unique}`,
      });
      try {
        const bridge: { bridge: unknown; at: number }[] = [];
        // Fresh (not retained) states by device id, as the simulators publish them.
        const states: { id: string; state: Record<string, unknown> }[] = [];
        stream.on('message', (topic, payload, packet) => {
          if (payload.length === 0) return;
          const body = JSON.parse(payload.toString());
          if (topic.endsWith('/events/hub.status')) bridge.push({ bridge: body.bridge, at: Date.now() });
          else if (!packet.retain) states.push({ id: topic.slice(topic.lastIndexOf('/') + 1), state: body });
        });
        await stream.subscribeAsync([
          `${prefix}/devicehub/events/hub.status`,
          `${prefix}/devicehub/devices/#`,
        ]);
        await poll(async () => bridge.at(-1)?.bridge === 'online', 5000);
        // The running simulator's states flow (a device it has taken offline for a while says nothing).
        await poll(async () => states.length > 0, 10_000);

        const killedAt = Date.now();
        running.process.kill('SIGKILL');
        // Its last will: the standby's hub sees the bridge offline (nothing answered "sent" since).
        await poll(async () => bridge.some((status) => status.bridge === 'offline'), 10_000).catch(() => {
          throw new Error(`the standby never saw the bridge offline: ${JSON.stringify(bridge)}`);
        });
        // Until its own simulator runs, commands through it answer 503; the one it sends is obeyed.
        const answers: unknown[] = [];
        let brightness = 30;
        await poll(
          async () => {
            const answer = await command(++brightness);
            if (answer.status === 200) return true;
            answers.push([answer.status, answer.body.error]);
            return false;
          },
          10_000,
          50,
        );
        expect(
          answers.filter((answer) => JSON.stringify(answer) !== '[503,"Device bridge offline"]'),
        ).toEqual([]);
        await poll(
          async () => states.some(({ id, state }) => id === lamp.id && state.brightness === brightness),
          5000,
        );
        const offline = bridge.findIndex((status) => status.bridge === 'offline');
        const tookOver = await poll(async () =>
          bridge.slice(offline).find((status) => status.bridge === 'online'),
        );
        expect(tookOver.at - killedAt).toBeLessThan(5000);
        expect(standby.output()).toContain('this one takes over');

        // The take-over says online again, retained, for whoever subscribes later.
        const late = await mqtt.connectAsync(mqttUrl!);
        try {
          const retained = new Promise<string>((resolve) =>
            late.on('message', (_topic, payload, packet) => packet.retain && resolve(payload.toString())),
          );
          await late.subscribeAsync(`${base}/bridge/state`);
          expect(JSON.parse(await retained)).toEqual({ state: 'online' });
        } finally {
          await late.endAsync();
        }
      } finally {
        await stream.endAsync();
      }
    }, 60_000);
  },
);
