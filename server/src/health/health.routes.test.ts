import { describe, expect, it } from 'vitest';
import { failingChecks, type HealthCheck } from './health.routes.js';

const liveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('health checks', () => {
  it('names what fails, throws, rejects or does not answer in time, sorted', async () => {
    const checks: HealthCheck[] = [
      { name: 'http', check: () => true },
      { name: 'bus', check: () => false },
      {
        name: 'mail',
        check: () => {
          throw new Error('down');
        },
      },
      { name: 'database', check: async () => true },
      { name: 'devicehub', check: () => Promise.reject(new Error('not ready')) },
      { name: 'history', check: () => new Promise<boolean>(() => {}) },
      { name: 'activity', check: () => new Promise<boolean>((resolve) => setTimeout(resolve, 300, true)) },
    ];
    const started = Date.now();
    expect(await failingChecks(checks, 100)).toEqual(['activity', 'bus', 'devicehub', 'history', 'mail']);
    expect(Date.now() - started).toBeLessThan(250);
  });

  it('answers as soon as every check has, and leaves no timer behind', async () => {
    const before = liveTimers();
    for (let i = 0; i < 100; i++)
      expect(
        await failingChecks([
          { name: 'database', check: async () => true },
          { name: 'bus', check: () => true },
        ]),
      ).toEqual([]);
    expect(liveTimers()).toBe(before);
  });
});
