import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/wait.js';
import { Argon2Workers } from './argon2-workers.js';
import { ARGON2_OPTIONS } from './password-hasher.js';

describe('argon2id worker threads', () => {
  const workers = new Argon2Workers(2);
  afterAll(() => workers.close());

  it('hashes with argon2id at the configured cost and verifies', async () => {
    const hash = await workers.hash('a long passphrase', ARGON2_OPTIONS);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await workers.verify(hash, 'a long passphrase')).toBe(true);
    expect(await workers.verify(hash, 'another passphrase')).toBe(false);
    expect(await workers.verify('not a hash', 'x')).toBe(false);
  });

  it('keeps the event loop free while many hashes queue', async () => {
    const hash = await workers.hash('queued', ARGON2_OPTIONS);
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 12 }, () => workers.verify(hash, 'queued')));
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(results.every(Boolean)).toBe(true);
    // Hashing on the event loop would stall the timer for the whole run; here it keeps ticking
    // (scheduler noise on a busy machine aside).
    expect(worstGap).toBeLessThan(elapsed / 3);
  });

  it('starts workers on demand and retires them when idle', async () => {
    // Idle for 1 s retires a thread: long enough that the first of two verifications, done early
    // on a busy machine, does not retire its thread before the second is done.
    const lazy = new Argon2Workers(2, 10, 1000);
    expect(lazy.threads).toBe(0);
    const hash = await lazy.hash('on demand', ARGON2_OPTIONS);
    await Promise.all([lazy.verify(hash, 'on demand'), lazy.verify(hash, 'on demand')]);
    expect(lazy.threads).toBe(2);
    await waitFor(() => lazy.threads === 0, 5000);
    expect(await lazy.verify(hash, 'on demand')).toBe(true);
    await lazy.close();
  });

  it('fails pending work when closed instead of hanging', async () => {
    const closing = new Argon2Workers(1);
    const settled = Promise.allSettled([
      closing.hash('x', ARGON2_OPTIONS),
      closing.hash('y', ARGON2_OPTIONS),
    ]);
    await closing.close();
    const [running, queued] = await settled;
    expect(running?.status).toBe('rejected');
    expect(queued?.status).toBe('rejected');
    await expect(closing.verify('h', 'p')).rejects.toThrow(/closed/);
  });
});
