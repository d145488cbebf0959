// Accounts: argon2id cost and login throughput against the machine's raw argon2id rate; the
// latency of /api/auth/me beside a bare Fastify route, and while a login storm hashes.
import { createRequire } from 'node:module';
import os from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { report, startHearth } from './lib.mjs';

const { hash, verify } = createRequire(new URL('../server/package.json', import.meta.url))('@node-rs/argon2');
// The parameters the server uses (server/src/accounts/password-hasher.ts).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const cores = os.availableParallelism();
const loadBefore = os.loadavg();
const PASSWORD = 'bench passphrase for hearth';

// 1. Raw argon2id: one hash's time, then verifies on every core for 5 s (again after step 2).
const started = performance.now();
const stored = await hash(PASSWORD, ARGON2);
const oneHashMs = performance.now() - started;
async function rawVerifyRate(ms) {
  let verified = 0;
  const begun = performance.now();
  const until = begun + ms;
  await Promise.all(
    Array.from({ length: Math.min(cores, 4) }, async () => {
      while (performance.now() < until) {
        await verify(stored, PASSWORD);
        verified++;
      }
    }),
  );
  return verified / ((performance.now() - begun) / 1000);
}
const rawBefore = await rawVerifyRate(5000);

const hearth = await startHearth({ SIMULATOR: 'off' });
const json = { 'content-type': 'application/json' };
const user = {
  first_name: 'Bench',
  last_name: 'Mark',
  user_name: 'bench',
  email: 'bench@example.com',
  password: PASSWORD,
};
await fetch(`${hearth.url}/api/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify(user) });
const loginBody = JSON.stringify({ email: user.email, password: PASSWORD });
const { access_token } = await (
  await fetch(`${hearth.url}/api/auth/login/start`, { method: 'POST', headers: json, body: loginBody })
).json();

const loginStorm = (duration) =>
  autocannon({
    url: `${hearth.url}/api/auth/login/start`,
    method: 'POST',
    headers: json,
    body: loginBody,
    connections: cores * 8,
    duration,
    workers: 0,
  });
const me = (url, headers = {}) =>
  autocannon({ url, headers, connections: 10, overallRate: 300, duration: 10, workers: 0 });

// 2. Hearth's login rate (each one a full argon2id verification, plus issuing a session).
const logins = await loginStorm(10);
const loginRate = logins.requests.average;
// The machine may be shared: the raw rate is taken before and after, and averaged.
const rawRate = (rawBefore + (await rawVerifyRate(5000))) / 2;

// 3. /me at a fixed offered load beside a bare Fastify route answering a user.
const bare = Fastify();
bare.get('/api/auth/me', async () => ({ id: 'x', email: user.email, user_name: user.user_name }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareMe = await me(`http://127.0.0.1:${bare.server.address().port}/api/auth/me`);
await bare.close();
const auth = { authorization: `Bearer ${access_token}` };
const idleMe = await me(`${hearth.url}/api/auth/me`, auth);

// 4. /me during a 10 s login storm.
const [stormMe] = await Promise.all([me(`${hearth.url}/api/auth/me`, auth), loginStorm(10)]);
await hearth.stop();

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const errors = (r) => r.errors + r.non2xx;
console.log(
  `load average before: ${loadBefore.map((n) => n.toFixed(1)).join(' ')}; Hearth's hashing threads run at nice 10 so its own event loop goes first; figures taken on a loaded machine are noisy`,
);
console.log(
  `argon2id m=${ARGON2.memoryCost} KiB, t=${ARGON2.timeCost}, p=${ARGON2.parallelism}; one hash ${oneHashMs.toFixed(1)} ms; ${cores} cores`,
);
report(
  'accounts',
  [
    {
      measure: 'argon2id verify/s (raw, all cores)',
      value: Math.round(rawRate * 10) / 10,
      target: '',
      ok: '',
    },
    {
      measure: 'Hearth logins/s',
      value: Math.round(loginRate * 10) / 10,
      target: '>= 0.9 x raw',
      ok: loginRate >= 0.9 * rawRate && errors(logins) === 0,
    },
    {
      measure: 'login / raw',
      value: ratio(loginRate, rawRate),
      target: '>= 0.9',
      ok: loginRate >= 0.9 * rawRate,
    },
    { measure: 'bare route p99 ms (300 req/s)', value: bareMe.latency.p99, target: '', ok: '' },
    {
      measure: '/me p99 ms (300 req/s, idle)',
      value: idleMe.latency.p99,
      target: '',
      ok: errors(idleMe) === 0,
    },
    {
      measure: '/me p99 / bare p99',
      value: ratio(idleMe.latency.p99, bareMe.latency.p99),
      target: '<= 1.5',
      ok: idleMe.latency.p99 <= 1.5 * bareMe.latency.p99,
    },
    {
      measure: '/me p99 ms during login storm',
      value: stormMe.latency.p99,
      target: '',
      ok: errors(stormMe) === 0,
    },
    {
      measure: 'storm p99 / idle p99',
      value: ratio(stormMe.latency.p99, idleMe.latency.p99),
      target: '<= 2',
      ok: stormMe.latency.p99 <= 2 * idleMe.latency.p99,
    },
  ],
  { argon2: { ...ARGON2, algorithm: 'argon2id' }, oneHashMs, loginErrors: errors(logins), loadBefore },
);
