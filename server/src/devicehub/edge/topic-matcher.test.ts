import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topicMatches } from '../../bus/bus.js';
import { matchesFilter } from './topic-matcher.js';

describe('matchesFilter', () => {
  it.each([
    ['a/devices/#', 'a/devices/x', true],
    ['a/devices/#', 'a/devices', true],
    ['a/devices/#', 'a/devicesx/y', false],
    ['a/devices/+', 'a/devices/x', true],
    ['a/devices/+', 'a/devices/x/y', false],
    ['a/devices/+', 'a/devices/', true],
    ['a/events/device.upsert', 'a/events/device.upsert', true],
    ['a/+/x', 'a/b/x', true],
    ['#', 'a/b', true],
    ['a/#', 'a', true],
  ])('%s against %s is %s', (filter, topic, expected) => {
    expect(matchesFilter(filter, topic)).toBe(expected);
  });

  it('agrees with the bus matcher on random filters and topics', () => {
    const level = fc.constantFrom('a', 'b', 'devices', '');
    const topic = fc.array(level, { minLength: 1, maxLength: 4 }).map((l) => l.join('/'));
    const filter = fc
      .tuple(fc.array(fc.oneof(level, fc.constant('+')), { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([levels, hash]) => [...levels, ...(hash ? ['#'] : [])].join('/'));
    fc.assert(fc.property(filter, topic, (f, t) => matchesFilter(f, t) === topicMatches(f, t)));
  });
});
