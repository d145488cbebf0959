import { describe, expect, it } from 'vitest';
import { IMAGE_JOB_CONCURRENCY, ImageJobs } from './image-jobs.js';

describe('ImageJobs', () => {
  it('runs one job at a time and queues the rest, each answering its own caller', async () => {
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
    expect(IMAGE_JOB_CONCURRENCY).toBe(1);
    expect(most).toBe(1);
    expect(results).toEqual([0, 1, 2, 'unreadable', ...Array.from({ length: 12 }, (_, i) => i + 4)]);
    expect(jobs.running).toBe(0);
  });
});
