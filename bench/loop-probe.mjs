// Preloaded into Hearth (BENCH_LOOP=1 in devicehub-stream.bench.mjs, NODE_OPTIONS=--import=…): notes
// every garbage collection (kind, start, duration) and every time the event loop came back late
// (a 5 ms timer more than LOOP_PROBE_MS late), and writes both to LOOP_PROBE_OUT as JSON when the
// process exits (`%p` in the name: the process id, so each mode of a bench writes its own). Times
// are CLOCK_MONOTONIC in ms (process.hrtime), the clock of a --cpu-prof
// profile's timestamps (µs there), so a stall can be matched with the functions sampled in it.
import fs from 'node:fs';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';

const out = process.env.LOOP_PROBE_OUT?.replace('%p', String(process.pid));
const lateMs = Number(process.env.LOOP_PROBE_MS ?? 3);
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;
// performance.now() → monotonic ms.
const offset = monotonicMs() - performance.now();
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

const gcs = [];
const stalls = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcs.push({
      at: Math.round((entry.startTime + offset) * 100) / 100,
      ms: Math.round(entry.duration * 100) / 100,
      kind: KINDS[entry.detail?.kind ?? entry.kind] ?? String(entry.detail?.kind),
    });
  }
}).observe({ entryTypes: ['gc'] });

const EVERY = 5;
let expected = monotonicMs() + EVERY;
setInterval(() => {
  const now = monotonicMs();
  const late = now - expected;
  if (late > lateMs) stalls.push({ at: Math.round(expected * 100) / 100, ms: Math.round(late * 100) / 100 });
  expected = now + EVERY;
}, EVERY).unref();

process.on('exit', () => {
  if (out) fs.writeFileSync(out, JSON.stringify({ lateMs, offset, exitedAt: monotonicMs(), gcs, stalls }));
});
