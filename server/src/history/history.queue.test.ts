import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { TOO_MANY_REQUESTS } from '../http/rate-limit.js';
import { HistoryQueue, type Release } from './history.queue.js';

const limits = { running: 2, waiting: 3, retryAfter: { min: 2, max: 2 } };

describe('HistoryQueue', () => {
  it('runs a person’s first requests at once, queues the next ones in order, and refuses beyond with 429 and Retry-After', async () => {
    const queue = new HistoryQueue(limits);
    const order: number[] = [];
    const turns = Array.from({ length: 5 }, (_, i) =>
      queue.enter('ada').then((release) => {
        order.push(i);
        return release;
      }),
    );
    const refused = await queue.enter('ada').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      statusCode: 429,
      message: TOO_MANY_REQUESTS,
      extra: { retry_after: 2 },
      headers: { 'retry-after': '2' },
    });
    // Another person is not held up by Ada's.
    const grace = await queue.enter('grace');
    grace();

    const first = await Promise.all(turns.slice(0, 2));
    expect(order).toEqual([0, 1]);
    // Each turn given back lets the next waiting one in, in order, until every one has run.
    const releases: Release[] = [...first];
    for (let i = 2; i < 5; i++) {
      releases.shift()!();
      releases.push(await turns[i]!);
    }
    expect(order).toEqual([0, 1, 2, 3, 4]);
    for (const release of releases) {
      release();
      release(); // a second call does nothing
    }
    await expect(Promise.all([queue.enter('ada'), queue.enter('ada')])).resolves.toHaveLength(2);
  });
});
