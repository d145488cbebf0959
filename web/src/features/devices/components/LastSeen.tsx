import { useSyncExternalStore } from 'react';
import { formatLastSeen } from '../model/format.js';

// One clock for every mounted tile: a tick re-renders only these small labels.
const TICK_MS = 10_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The shared 10 s clock (epoch ms): re-renders its reader on each tick. */
export const useTileClock = () => useSyncExternalStore(subscribe, () => now);

export function LastSeen({ at }: { at: number | null }) {
  const clock = useTileClock();
  // A fresh message is never "in the future" of a clock that ticked before it arrived.
  return <span className="last-seen">Last seen {formatLastSeen(at, Math.max(clock, at ?? 0))}</span>;
}
