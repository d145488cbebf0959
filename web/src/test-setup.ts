import { cleanup } from '@testing-library/react';
import { afterAll, vi } from 'vitest';

// Test files share a worker (isolate: false in vitest.config.ts, for speed): each file still gets
// the app's own modules afresh (stores, caches and flags live in them), an empty document and
// empty storage, as a page load would. Libraries (React, jsdom) stay loaded.
vi.resetModules();
afterAll(() => {
  cleanup();
  document.body.innerHTML = '';
  document.head.innerHTML = '';
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
