// Web budget (issue 5): the JavaScript `/` loads before any interaction (gzip), Largest
// Contentful Paint on loopback, and the longest main-thread task while home settles, in
// headless Debian Chromium against the built server and web app.
import os from 'node:os';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { percentile, report, startHearth } from './lib.mjs';

const RUNS = 7;
const SETTLE_MS = 1500;
const BUDGET = { jsKb: 150, lcpMs: 1000, longTaskMs: 50 };

// Registered before the app's first script so nothing is missed.
const observe = () => {
  window.__bench = { lcp: 0, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
};

const hearth = await startHearth({ SIMULATOR: 'off' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});

const samples = [];
try {
  for (let run = 0; run < RUNS; run++) {
    // A fresh context each time: a first visit, nothing cached.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(observe);
    const scripts = new Map();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      scripts.set(response.url(), zlib.gzipSync(body, { level: 9 }).length);
    });
    await page.goto(hearth.url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(SETTLE_MS);
    const { lcp, longTasks } = await page.evaluate(() => window.__bench);
    const jsGzip = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    samples.push({
      jsKb: jsGzip / 1024,
      scripts: scripts.size,
      lcpMs: lcp,
      longestTaskMs: Math.max(0, ...longTasks),
    });
    await context.close();
  }
} finally {
  await browser.close();
  await hearth.stop();
}

const sorted = (key) => samples.map((s) => s[key]).sort((a, b) => a - b);
const round = (value) => Math.round(value * 10) / 10;
const jsKb = round(Math.max(...sorted('jsKb')));
const lcp = { p50: round(percentile(sorted('lcpMs'), 50)), max: round(Math.max(...sorted('lcpMs'))) };
const task = {
  p50: round(percentile(sorted('longestTaskMs'), 50)),
  max: round(Math.max(...sorted('longestTaskMs'))),
};
const [load1] = os.loadavg();

// Timings are judged on the median of the cold loads (one slow outlier on a busy machine is
// noise); the worst run is printed beside it.
const rows = [
  {
    measure: 'initial JS for / (gzip KB)',
    p50: jsKb,
    max: jsKb,
    budget: `≤ ${BUDGET.jsKb}`,
    ok: jsKb <= BUDGET.jsKb,
  },
  { measure: 'scripts before interaction', p50: samples[0]?.scripts ?? 0, max: '', budget: '', ok: true },
  {
    measure: 'LCP (ms)',
    p50: lcp.p50,
    max: lcp.max,
    budget: `< ${BUDGET.lcpMs}`,
    ok: lcp.p50 < BUDGET.lcpMs,
  },
  {
    measure: 'longest task while settling (ms)',
    p50: task.p50,
    max: task.max,
    budget: `≤ ${BUDGET.longTaskMs}`,
    ok: task.p50 <= BUDGET.longTaskMs,
  },
];
console.log(
  `${RUNS} cold loads of / at 1440x900; load average ${load1.toFixed(1)} on ${os.cpus().length} CPUs`,
);
report('web', rows, { runs: RUNS, settleMs: SETTLE_MS, loadAverage: load1, samples });
// A benchmark reports; it does not fail the run. Misses are printed for the reader.
if (rows.some((row) => !row.ok)) console.warn('web budget exceeded (see the ok column)');
