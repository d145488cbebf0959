// Platform baseline: /healthz through Hearth (database ping and bus check included) beside a
// bare Fastify route, at the same fixed request count and concurrency.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { report, startHearth } from './lib.mjs';

const run = (url) =>
  autocannon({ url, connections: 10, duration: 5, workers: 0 }).then((r) => ({
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    errors: r.errors + r.non2xx,
  }));

const bare = Fastify();
bare.get('/healthz', async () => ({ status: 'ok' }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareResult = await run(`http://127.0.0.1:${bare.server.address().port}/healthz`);
await bare.close();

const hearth = await startHearth({ SIMULATOR: 'off' });
const hearthResult = await run(`${hearth.url}/healthz`);
await hearth.stop();

report('healthz', [
  { target: 'bare Fastify route', ...bareResult },
  { target: 'Hearth /healthz', ...hearthResult },
]);
