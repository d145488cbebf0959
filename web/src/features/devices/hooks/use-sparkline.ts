import type { HistoryAnswer } from '@hearth/contracts';
import { type RefObject, useEffect, useState } from 'react';
import { api } from '../../../shared/api/client.js';
import { type SparklinePoints, sparklinePoints } from '../model/sparkline.js';

/** docs/history.md#sparklines: the last 24 h, about one point per half hour, refreshed every 5 min. */
export const SPARKLINE_SPAN_MS = 24 * 3_600_000;
export const SPARKLINE_POINTS = 48;
export const SPARKLINE_REFRESH_MS = 5 * 60_000;
/** At most this many sparkline requests at once: a screen of tiles does not queue ahead of commands. */
const CONCURRENT = 3;

export interface SparklineData extends SparklinePoints {
  from: number;
  to: number;
}

interface Entry {
  at: number;
  data: SparklineData | null;
  loading: Promise<void> | undefined;
  listeners: Set<() => void>;
}

/** One cache for the page: a tile scrolled out and back in does not ask again within the refresh. */
const cache = new Map<string, Entry>();
const queue: (() => Promise<void>)[] = [];
let running = 0;

function pump() {
  while (running < CONCURRENT && queue.length > 0) {
    const job = queue.shift()!;
    running++;
    void job().finally(() => {
      running--;
      pump();
    });
  }
}

function entryFor(key: string): Entry {
  let entry = cache.get(key);
  if (!entry) {
    entry = { at: 0, data: null, loading: undefined, listeners: new Set() };
    cache.set(key, entry);
  }
  return entry;
}

/** Loads the sparkline unless a fresh one is cached or on its way. */
function load(deviceId: string, property: string, entry: Entry) {
  if (entry.loading || Date.now() - entry.at < SPARKLINE_REFRESH_MS) return;
  entry.loading = new Promise<void>((resolve) => {
    queue.push(async () => {
      const to = Date.now();
      const from = to - SPARKLINE_SPAN_MS;
      const result = await api.get<HistoryAnswer>('/api/history', {
        device_id: deviceId,
        property,
        from,
        to,
        points: SPARKLINE_POINTS,
      });
      entry.at = Date.now();
      entry.loading = undefined;
      // A failed call or a property with nothing recorded: no line (and no retry before the refresh).
      entry.data = result.success ? { ...sparklinePoints(result.data), from, to } : null;
      for (const listener of entry.listeners) listener();
      resolve();
    });
    pump();
  });
}

/** Test seam: forget every cached sparkline. */
export function clearSparklines() {
  cache.clear();
}

// One IntersectionObserver for every sparkline of the page.
const watchers = new Map<Element, (visible: boolean) => void>();
let observer: IntersectionObserver | undefined;
function watch(element: Element, onChange: (visible: boolean) => void) {
  // Without IntersectionObserver (tests in jsdom) nothing counts as on screen: nothing loads.
  if (typeof IntersectionObserver === 'undefined') return () => {};
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) watchers.get(entry.target)?.(entry.isIntersecting);
  });
  watchers.set(element, onChange);
  observer.observe(element);
  return () => {
    watchers.delete(element);
    observer?.unobserve(element);
  };
}

/** What the page knows of a sparkline: `undefined` until its first answer, then its line or null. */
type Known = SparklineData | null | undefined;
const known = (entry: Entry | undefined): Known => (entry && entry.at > 0 ? entry.data : undefined);

/**
 * A tile's sparkline: loaded once its element is on screen (only mounted tiles have one: the
 * virtualised grid mounts the visible rows), from the cache when fresh, again every 5 minutes
 * while it stays on screen. `undefined` until the first answer (the tile keeps the line's room
 * meanwhile), null when nothing is recorded.
 */
export function useSparkline(element: RefObject<Element | null>, deviceId: string, property: string): Known {
  const key = `${deviceId}\u0000${property}`;
  const [data, setData] = useState<Known>(() => known(cache.get(key)));
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    // The whole tile counts: the line loads as soon as any of its tile is on screen.
    const target = element.current?.closest('.device-tile') ?? element.current;
    if (!target) return;
    return watch(target, setVisible);
  }, [element]);

  useEffect(() => {
    const entry = entryFor(key);
    setData(known(entry));
    const listener = () => setData(known(entry));
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
    };
  }, [key]);

  useEffect(() => {
    if (!visible) return;
    const entry = entryFor(key);
    load(deviceId, property, entry);
    const timer = setInterval(() => load(deviceId, property, entry), SPARKLINE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [visible, key, deviceId, property]);

  return data;
}
