// Several instances (issue 17 acceptance 4): login rate and /me p99 of one instance, of one behind
// nginx, and of two behind nginx (round robin), all on one fresh PostgreSQL database and Mosquitto.
// Needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default the CI's), Mosquitto
// (BENCH_MQTT_URL or TEST_MQTT_URL) and nginx; without them it says so and reports nothing.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { tsImport } from 'tsx/esm/api';
import { freePort, report, startHearth } from './lib.mjs';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const pg = require('pg');
const databaseUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const mqttUrl = process.env.BENCH_MQTT_URL ?? process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const e2eNginx = tsImport(
  pathToFileURL(path.join(import.meta.dirname, '../e2e/support/nginx.ts')).href,
  import.meta.url,
);
const nginx = (await e2eNginx).nginxBinary();
const cores = os.availableParallelism();
const loadBefore = os.loadavg();

const unique = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
const database = `hearth_bench_${unique}`;
const admin = new pg.Client({ connectionString: databaseUrl });
try {
  if (!nginx) throw new Error('nginx is not installed');
  await admin.connect();
  await admin.query(`create database ${database}`);
} catch (error) {
  console.log(`instances bench skipped: ${error.message}`);
  process.exit(0);
}
const url = new URL(databaseUrl);
url.pathname = `/${database}`;
const env = {
  DATABASE_URL: url.toString(),
  MQTT_URL: mqttUrl,
  SIMULATOR: 'off',
  ZIGBEE2MQTT_BASE_TOPIC: `z2m-bench-${unique}`,
  DEVICEHUB_TOPIC_PREFIX: `hearth-bench-${unique}`,
  TRUST_PROXY: 'loopback',
};

/** nginx in front of `ports`, as in the README's "Running several instances" (the browser tests' own). */
const startNginx = async (ports) =>
  (await e2eNginx).startNginx(nginx, await freePort(), ports, { workerConnections: 4096, keepalive: 64 });

const json = { 'content-type': 'application/json' };
/** Each measurement's length (BENCH_SECONDS to shorten a trial run). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PASSWORD = 'bench passphrase for hearth';
// One account per connection: sign-in attempts in flight for one address count towards its lockout.
const CONNECTIONS = cores * 8;
const users = Array.from({ length: CONNECTIONS }, (_, index) => ({
  first_name: 'Bench',
  last_name: `Mark${index}`,
  user_name: `bench${index}`,
  email: `bench${index}@example.com`,
  password: PASSWORD,
}));
const loginBodies = users.map((user) => JSON.stringify({ email: user.email, password: PASSWORD }));
let turn = 0;

/** Login storm and /me at a fixed offered load (300 req/s), as accounts.bench.mjs measures one instance. */
async function measure(base) {
  const { access_token } = await (
    await fetch(`${base}/api/auth/login/start`, { method: 'POST', headers: json, body: loginBodies[0] })
  ).json();
  const logins = await autocannon({
    url: `${base}/api/auth/login/start`,
    method: 'POST',
    headers: json,
    connections: CONNECTIONS,
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: loginBodies[turn++ % loginBodies.length] }),
      },
    ],
    duration: SECONDS,
    workers: 0,
  });
  const me = await autocannon({
    url: `${base}/api/auth/me`,
    headers: { authorization: `Bearer ${access_token}` },
    connections: 10,
    overallRate: 300,
    duration: SECONDS,
    workers: 0,
  });
  return {
    loginsPerSecond: Math.round(logins.requests.average * 10) / 10,
    loginErrors: logins.errors + logins.non2xx,
    loginStatuses: { ...logins.statusCodeStats, errors: logins.errors, timeouts: logins.timeouts },
    meP99: me.latency.p99,
    meErrors: me.errors + me.non2xx,
  };
}

const results = {};
const first = await startHearth({ ...env, AUTH_RATE_LIMIT: '0' });
for (const user of users)
  await fetch(`${first.url}/api/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify(user) });
try {
  results.one = await measure(first.url);
  let proxy = await startNginx([first.port]);
  results.oneProxied = await measure(proxy.url);
  await proxy.stop();
  const second = await startHearth({ ...env, AUTH_RATE_LIMIT: '0' });
  try {
    proxy = await startNginx([first.port, second.port]);
    results.two = await measure(proxy.url);
    await proxy.stop();
  } finally {
    await second.stop();
  }
} finally {
  await first.stop();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  `load average before: ${loadBefore.map((n) => n.toFixed(1)).join(' ')}; ${cores} cores shared by every instance, nginx and the load generator: logins are argon2id-bound, so a second instance on the same cores adds no hashing capacity`,
);
const row = (measure, value, extra = {}) => ({ measure, value, target: '', ok: '', ...extra });
report(
  'instances',
  [
    row('one instance: logins/s', results.one.loginsPerSecond, { ok: results.one.loginErrors === 0 }),
    row('one behind nginx: logins/s', results.oneProxied.loginsPerSecond, {
      ok: results.oneProxied.loginErrors === 0,
    }),
    row('two behind nginx: logins/s', results.two.loginsPerSecond, { ok: results.two.loginErrors === 0 }),
    row('two behind nginx / one: logins', ratio(results.two.loginsPerSecond, results.one.loginsPerSecond)),
    row('one instance: /me p99 ms (300 req/s)', results.one.meP99, { ok: results.one.meErrors === 0 }),
    row('one behind nginx: /me p99 ms', results.oneProxied.meP99, { ok: results.oneProxied.meErrors === 0 }),
    row('two behind nginx: /me p99 ms', results.two.meP99, { ok: results.two.meErrors === 0 }),
  ],
  {
    results,
    loadBefore,
    database: 'postgres',
    nginx: spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim(),
  },
);
