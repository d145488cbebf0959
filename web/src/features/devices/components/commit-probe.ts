import { useLayoutEffect } from 'react';

declare global {
  interface Window {
    /** Set by the benchmark: the grid's React commits are recorded here. */
    __HEARTH_PROFILE__?: { commits: { duration: number; at: number; tiles: number }[] };
  }
}

// React's <Profiler> reports nothing in a production build, so tiles report their own renders:
// renders and layout effects that run in one synchronous batch belong to one commit.
let batch: { start: number; tiles: number } | null = null;

function markRender() {
  if (!window.__HEARTH_PROFILE__ || batch) return;
  batch = { start: performance.now(), tiles: 0 };
  const profile = window.__HEARTH_PROFILE__;
  queueMicrotask(() => {
    if (batch && batch.tiles > 0) {
      const at = performance.now();
      profile.commits.push({ duration: at - batch.start, at, tiles: batch.tiles });
    }
    batch = null;
  });
}

function useTileCommitCount() {
  markRender();
  useLayoutEffect(() => {
    if (batch) batch.tiles++;
  });
}

/**
 * Counts this tile's render into the current commit. Chosen once, when the page's code loads: the
 * benchmark sets `window.__HEARTH_PROFILE__` before any script runs (bench/devices-page.bench.mjs);
 * everywhere else tiles render without the probe (no per-tile effect, no timing).
 */
export const useCommitProbe: () => void =
  typeof window !== 'undefined' && window.__HEARTH_PROFILE__ !== undefined ? useTileCommitCount : () => {};
