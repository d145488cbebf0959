import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../shared/api/test-fetch.js';
import { fetchHistory, HISTORY_IN_FLIGHT, HISTORY_RETRIES } from './history.api.js';

const ANSWER = { device_id: 'd', property: 'p', resolution: 'raw', bucket_ms: 0, type: 'number', points: [] };
const BUSY = { status: 429, body: { error: 'Too many requests, please try again later', retry_after: 1 } };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('fetchHistory', () => {
  it('asks again after retry_after when the server says 429, and loads the chart', async () => {
    vi.useFakeTimers();
    let calls = 0;
    stubFetch(() => (++calls < 3 ? BUSY : { body: ANSWER }));
    const loading = fetchHistory('d', 'p', 0, 1000, 100);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await loading).toEqual({ ok: true, data: ANSWER });
    expect(calls).toBe(3);
  });

  it(`gives up after ${HISTORY_RETRIES} retries with the server's error, and never retries other failures`, async () => {
    vi.useFakeTimers();
    const calls = stubFetch(() => BUSY);
    const loading = fetchHistory('d', 'p', 0, 1000, 100);
    await vi.advanceTimersByTimeAsync(HISTORY_RETRIES * 1000);
    expect(await loading).toEqual({ ok: false, status: 429, error: BUSY.body.error });
    expect(calls).toHaveLength(HISTORY_RETRIES + 1);

    vi.unstubAllGlobals();
    const refused = stubFetch(() => ({ status: 404, body: { error: 'Device not found' } }));
    expect(await fetchHistory('d', 'p', 0, 1000, 100)).toEqual({
      ok: false,
      status: 404,
      error: 'Device not found',
    });
    expect(refused).toHaveLength(1);
  });

  it(`has at most ${HISTORY_IN_FLIGHT} charts in flight at once; the others wait for their turn and all load`, async () => {
    let open = 0;
    let most = 0;
    const answers: (() => void)[] = [];
    stubFetch(async () => {
      most = Math.max(most, ++open);
      await new Promise<void>((resolve) => answers.push(resolve));
      open--;
      return { body: ANSWER };
    });
    const charts = Array.from({ length: 12 }, (_, i) => fetchHistory('d', `p${i}`, 0, 1000, 100));
    // The server answers one request at a time, each once the app has sent it.
    for (let answered = 0; answered < 12; ) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const next = answers.shift();
      if (next) {
        next();
        answered++;
      }
    }
    expect(await Promise.all(charts)).toEqual(Array.from({ length: 12 }, () => ({ ok: true, data: ANSWER })));
    expect(most).toBe(HISTORY_IN_FLIGHT);
  });
});
