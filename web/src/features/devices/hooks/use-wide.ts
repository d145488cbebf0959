import { useSyncExternalStore } from 'react';

/** docs/rooms.md#drag-and-drop: tiles can be dragged on screens at least this wide, with a mouse or pen. */
export const DRAG_MEDIA = '(min-width: 768px) and (any-pointer: fine)';

let query: MediaQueryList | null = null;
const media = () => {
  query ??= typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(DRAG_MEDIA) : null;
  return query;
};
const subscribe = (listener: () => void) => {
  const list = media();
  list?.addEventListener('change', listener);
  return () => list?.removeEventListener('change', listener);
};

/** True while tiles can be dragged (one media query shared by every tile). */
export const useCanDrag = () => useSyncExternalStore(subscribe, () => media()?.matches ?? false);
