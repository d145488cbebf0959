import { describe, expect, it } from 'vitest';
import { type PlanInput, planDelivery } from './delivery.plan.js';

const NOW = Date.parse('2026-03-03T03:00:00Z');
const base: PlanInput = {
  now: NOW,
  zone: 'UTC',
  version: 1,
  sentVersion: 0,
  sentAt: null,
  critical: false,
  resolved: false,
  windowMinutes: 10,
  quietHours: null,
};
const NIGHT = { start: '22:00', end: '07:00' };
const minutes = (n: number) => n * 60_000;

describe('planDelivery (docs/alerts.md#delivery)', () => {
  it.each<[string, Partial<PlanInput>, ReturnType<typeof planDelivery>]>([
    ['a new incident goes at once', {}, { action: 'send' }],
    ['nothing new: the version was sent', { version: 3, sentVersion: 3 }, { action: 'skip' }],
    [
      'quiet hours hold a warning until they end',
      { quietHours: NIGHT },
      { action: 'later', at: Date.parse('2026-03-03T07:00:00Z') },
    ],
    ['a critical one goes through quiet hours', { quietHours: NIGHT, critical: true }, { action: 'send' }],
    [
      'opened and cleared before anyone was told: nothing',
      { resolved: true, version: 2 },
      { action: 'skip' },
    ],
    [
      'within the window of the last one: when it ends',
      { version: 5, sentVersion: 4, sentAt: NOW - minutes(3) },
      { action: 'later', at: NOW + minutes(7) },
    ],
    [
      'the window has passed: the incident as it is now',
      { version: 9, sentVersion: 2, sentAt: NOW - minutes(10), resolved: true },
      { action: 'send' },
    ],
    [
      'a window of 0 minutes still spaces them a minute apart',
      { version: 2, sentVersion: 1, sentAt: NOW - 30_000, windowMinutes: 0 },
      { action: 'later', at: NOW + 30_000 },
    ],
  ])('%s', (_name, input, plan) => {
    expect(planDelivery({ ...base, ...input })).toEqual(plan);
  });
});
