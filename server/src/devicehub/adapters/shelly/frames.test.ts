import { describe, expect, it } from 'vitest';
import { notification, plus1pm } from './fixtures/shelly-devices.js';
import { MAX_COMPONENTS, mergeStatus, parseNotification, parseReply, requestFrame } from './frames.js';

const SRC = 'shellyplus1pm-a8032ab12345';
const json = (value: unknown) => JSON.stringify(value);

describe('Shelly frames', () => {
  it.each([
    [
      'NotifyFullStatus: the whole status, its timestamp left out',
      notification(SRC, 'NotifyFullStatus', plus1pm()),
      { kind: 'full', src: SRC, status: plus1pm() },
    ],
    [
      'NotifyStatus: a change',
      notification(SRC, 'NotifyStatus', { 'switch:0': { id: 0, output: true, source: 'button' } }),
      { kind: 'delta', src: SRC, status: { 'switch:0': { id: 0, output: true, source: 'button' } } },
    ],
    [
      'NotifyEvent: its events',
      notification(SRC, 'NotifyEvent', {
        events: [
          { component: 'input:0', id: 0, event: 'single_push', ts: 1 },
          { component: 'sys', event: 'scheduled_restart', time_ms: 900, ts: 1 },
          { event: 'no component' },
        ],
      }),
      {
        kind: 'events',
        src: SRC,
        events: [
          { component: 'input:0', id: 0, event: 'single_push' },
          { component: 'sys', id: undefined, event: 'scheduled_restart' },
        ],
      },
    ],
    [
      'another method',
      notification(SRC, 'NotifyWhatever', {}),
      { kind: 'other', src: SRC, method: 'NotifyWhatever' },
    ],
  ])('reads %s', (_case, frame, expected) => {
    expect(parseNotification(json(frame))).toEqual(expected);
  });

  it.each([
    ['not JSON', '{"src": "x"'],
    ['no src', json({ method: 'NotifyStatus', params: {} })],
    ['no method (a reply)', json({ id: 1, src: SRC, result: {} })],
    ['an array', '[1]'],
  ])('reads no notification from %s', (_case, payload) => {
    expect(parseNotification(payload)).toBeUndefined();
  });

  it.each([
    [
      'a result',
      { id: 7, src: SRC, dst: 'hearth', result: { was_on: false } },
      { id: 7, result: { was_on: false } },
    ],
    [
      'an error',
      { id: 8, src: SRC, error: { code: -103, message: 'Cover not calibrated' } },
      { id: 8, error: { code: -103, message: 'Cover not calibrated' } },
    ],
    ['no id', { src: SRC, result: {} }, undefined],
    ['neither result nor error', { id: 9, src: SRC }, undefined],
  ])('reads a reply with %s', (_case, frame, expected) => {
    expect(parseReply(json(frame))).toEqual(expected);
  });

  it("writes a request with Hearth's src, so the device answers on <src>/rpc", () => {
    expect(JSON.parse(requestFrame(3, 'hearth-shelly-1', 'Switch.Set', { id: 0, on: true }))).toEqual({
      id: 3,
      src: 'hearth-shelly-1',
      method: 'Switch.Set',
      params: { id: 0, on: true },
    });
    expect(JSON.parse(requestFrame(4, 'hearth-shelly-1', 'Shelly.GetStatus'))).toEqual({
      id: 4,
      src: 'hearth-shelly-1',
      method: 'Shelly.GetStatus',
    });
  });

  it('merges a change into the status field by field, and adds a new component within its bound', () => {
    const before = plus1pm();
    const merged = mergeStatus(before, {
      'switch:0': { output: true, apower: 41.5, aenergy: { total: 1521 } },
      'temperature:100': { id: 100, tC: 19 },
    });
    expect(merged['switch:0']).toMatchObject({
      output: true,
      apower: 41.5,
      voltage: 231.4,
      aenergy: { total: 1521, minute_ts: 1_740_000_000 },
    });
    expect(merged['temperature:100']).toEqual({ id: 100, tC: 19 });
    expect(before['switch:0'].output).toBe(false);
    const full = Object.fromEntries(
      Array.from({ length: MAX_COMPONENTS }, (_, i) => [`input:${i}`, { id: i, state: false }]),
    );
    expect(Object.keys(mergeStatus(full, { 'switch:0': { output: true } }))).toHaveLength(MAX_COMPONENTS);
  });
});
