import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { MixedTiersSequencer } from './vitest.sequencer.js';

// One runner for every test tier: server unit/integration, web unit, browser (e2e), in one pool.
// Most files wait on sockets, a server process or Chromium rather than compute, so the pool holds
// more files than there are cores (CONTRIBUTING.md); VITEST_MAX_WORKERS overrides it.
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || Math.max(3, os.availableParallelism() * 2);

export default defineConfig({
  test: {
    maxWorkers,
    sequence: { sequencer: MixedTiersSequencer },
    projects: [
      {
        test: {
          name: 'server',
          root: './server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test-setup.ts'],
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own server and works in browser contexts of its own; what a worker
          // keeps between files is the modules (playwright-core, the test kits) and one Chromium.
          isolate: false,
        },
      },
    ],
  },
});
