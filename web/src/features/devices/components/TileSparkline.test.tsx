import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../shared/api/test-fetch.js';
import { clearSparklines } from '../hooks/use-sparkline.js';
import { TileSparkline } from './TileSparkline.js';

/** Every observed element is on screen at once (jsdom lays nothing out). */
class OnScreen {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.callback([{ target, isIntersecting: true } as IntersectionObserverEntry], this as never),
    );
  }
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  clearSparklines();
  vi.stubGlobal('IntersectionObserver', OnScreen);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A tile whose one capability is a numeric reading in %, its sparkline inside. */
async function renderTile(deviceId: string, name: string, property: string, label: string) {
  await act(async () => {
    render(
      <article className="device-tile">
        <TileSparkline
          deviceId={deviceId}
          name={name}
          capabilities={[{ id: property, property, kind: 'numeric', name: label, unit: '%' }]}
        />
      </article>,
    );
  });
}

describe("the tile's trend line (docs/history.md#sparklines, issue 34)", () => {
  it('draws the last 24 h under a label naming the reading and its range', async () => {
    const now = Date.now();
    stubFetch(() => ({
      body: {
        device_id: 'bath',
        property: 'humidity',
        type: 'number',
        points: [
          { t: now - 3_600_000, min: 58, max: 59, mean: 58.2, last: 58.5, count: 4 },
          { t: now - 1_800_000, min: 63, max: 64, mean: 63.9, last: 63.9, count: 4 },
        ],
      },
    }));
    await renderTile('bath', 'Bathroom humidity', 'humidity', 'Humidity');
    const line = await screen.findByRole('img', {
      name: 'Bathroom humidity Humidity, last 24 h: 58.2–63.9 %',
    });
    expect(line.querySelector('path')?.getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+L[\d.]+ [\d.]+$/);
    const caption = document.querySelector('.tile-sparkline-caption');
    expect(caption?.textContent).toBe('Humidity · last 24 h58.2–63.9 %');
    expect(caption?.getAttribute('aria-hidden')).toBe('true');
  });

  it("keeps the line's room while it loads, and gives it back when nothing is recorded", async () => {
    let answer = (_body: unknown) => {};
    stubFetch(() => new Promise((resolve) => (answer = (body) => resolve({ body }))));
    await renderTile('door', 'Front door', 'battery', 'Battery');
    const line = document.querySelector('.tile-sparkline');
    expect(line?.getAttribute('data-state')).toBe('loading');
    // The same parts as a drawn line: a caption and a box of the line's height, nothing announced.
    expect(line?.querySelector('.tile-sparkline-caption')?.getAttribute('aria-hidden')).toBe('true');
    expect(line?.querySelector('.tile-sparkline-room')).not.toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    await act(async () => answer({ device_id: 'door', property: 'battery', type: 'number', points: [] }));
    const empty = document.querySelector('.tile-sparkline');
    expect(empty?.getAttribute('data-state')).toBe('none');
    expect(empty?.children).toHaveLength(0);
  });
});
