import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import { createLogger } from '../logging/logger.js';
import type { DevicesRepository, StateEntry } from './devicehub.repository.js';
import { StateWriter } from './state-writer.js';

function fakeRepository(fail = 0) {
  const batches: StateEntry[][] = [];
  let failures = fail;
  const repository = {
    saveStates: async (entries: StateEntry[]) => {
      if (failures-- > 0) throw new Error('database away');
      batches.push(entries);
    },
  } as unknown as DevicesRepository;
  return { repository, batches };
}

const log = pino({ level: 'silent' });

describe('state writer', () => {
  it('coalesces many updates per device into one write per flush', async () => {
    const { repository, batches } = fakeRepository();
    const writer = new StateWriter(repository, log, 60_000);
    for (let i = 0; i < 10_000; i++) writer.mark({ id: `d${i % 2000}`, state: { n: i }, lastSeen: null });
    await writer.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(2000);
    expect(batches[0]!.find((e) => e.id === 'd1999')!.state).toEqual({ n: 9999 });
    await writer.close();
  });

  it('keeps what failed for the next flush, without overwriting newer state', async () => {
    const { repository, batches } = fakeRepository(1);
    const writer = new StateWriter(repository, log, 60_000);
    writer.mark({ id: 'a', state: { n: 1 }, lastSeen: null });
    writer.mark({ id: 'b', state: { n: 1 }, lastSeen: null });
    await writer.flush();
    writer.mark({ id: 'a', state: { n: 2 }, lastSeen: null });
    await writer.close();
    expect(batches).toEqual([
      [
        { id: 'a', state: { n: 2 }, lastSeen: null },
        { id: 'b', state: { n: 1 }, lastSeen: null },
      ],
    ]);
  });

  it('logs an outage of the database once, and its end once, however many flushes fail', async () => {
    const { repository, batches } = fakeRepository(30);
    const logs = new LogCapture();
    const writer = new StateWriter(repository, createLogger('info', logs), 60_000);
    for (let i = 0; i < 31; i++) {
      writer.mark({ id: 'a', state: { n: i }, lastSeen: null });
      await writer.flush();
    }
    expect(batches).toEqual([[{ id: 'a', state: { n: 30 }, lastSeen: null }]]);
    expect(logs.lines.map((line) => JSON.parse(line).msg)).toEqual([
      'device state flush failed; retrying every second',
      'device state flush works again',
    ]);
    await writer.close();
  });
});
