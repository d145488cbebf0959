import { describe, expect, it } from 'vitest';
import { IMAGE_JOB_CONCURRENCY, ImageJobs, LARGE_IMAGE_JOB_CONCURRENCY } from './image-jobs.js';

describe('ImageJobs', () => {
  it('runs at most two jobs at once and queues the rest, each answering its own caller', async () => {
    const jobs = new ImageJobs();
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        jobs
          .run(async () => {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 10));
            running -= 1;
            if (i === 3) throw new Error('unreadable');
            return i;
          })
          .catch((error: Error) => error.message),
      ),
    );
    expect(IMAGE_JOB_CONCURRENCY).toBe(2);
    expect(most).toBe(2);
    expect(results).toEqual([0, 1, 2, 'unreadable', ...Array.from({ length: 12 }, (_, i) => i + 4)]);
    expect(jobs.running).toBe(0);
  });

  it('runs one large job at a time, with a small one beside it, each answering its own caller', async () => {
    const jobs = new ImageJobs();
    const running = { large: 0, small: 0 };
    const most = { large: 0, all: 0 };
    const job = (kind: 'large' | 'small', i: number) => async () => {
      running[kind] += 1;
      most.large = Math.max(most.large, running.large);
      most.all = Math.max(most.all, running.large + running.small);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running[kind] -= 1;
      if (i === 5) throw new Error('unreadable');
      return `${kind} ${i}`;
    };
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i < 8 ? jobs.runLarge(job('large', i)) : jobs.run(job('small', i))).catch(
          (error: Error) => error.message,
        ),
      ),
    );
    expect(LARGE_IMAGE_JOB_CONCURRENCY).toBe(1);
    expect(most).toEqual({ large: 1, all: 2 });
    expect(results).toEqual(
      Array.from({ length: 16 }, (_, i) => (i === 5 ? 'unreadable' : `${i < 8 ? 'large' : 'small'} ${i}`)),
    );
    expect(jobs.running).toBe(0);
  });
});
