import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The probe decides when its module loads: each test loads it afresh (another file in the same
// worker may have loaded it already).
beforeEach(() => vi.resetModules());
afterEach(() => {
  cleanup();
  delete window.__HEARTH_PROFILE__;
  vi.resetModules();
});

/** Loads the probe afresh, as a page load would, and renders three "tiles" in one commit. */
async function renderTiles() {
  const { useCommitProbe } = await import('./commit-probe.js');
  await act(async () => {
    renderHook(() => {
      useCommitProbe();
      useCommitProbe();
      useCommitProbe();
    });
  });
}

describe('the commit probe', () => {
  it('records commits when the benchmark asked for it before the page loaded', async () => {
    window.__HEARTH_PROFILE__ = { commits: [] };
    await renderTiles();
    expect(window.__HEARTH_PROFILE__.commits).toHaveLength(1);
    expect(window.__HEARTH_PROFILE__.commits[0]?.tiles).toBe(3);
  });

  it('does nothing otherwise, even if the flag appears later', async () => {
    const { useCommitProbe } = await import('./commit-probe.js');
    window.__HEARTH_PROFILE__ = { commits: [] };
    await act(async () => {
      renderHook(() => useCommitProbe());
    });
    expect(window.__HEARTH_PROFILE__.commits).toEqual([]);
  });
});
