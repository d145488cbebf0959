import type { Scene } from '@hearth/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { scenesApi } from './scenes.api.js';

// One list of scenes for every scene button on the page, read once and again after a change.
let scenes: Scene[] = [];
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Reads the scenes again (after a save, or when a page wants them fresh). */
export function reloadScenes(): Promise<void> {
  loading = scenesApi.list().then((result) => {
    if (result.success) scenes = result.data.scenes;
    for (const listener of listeners) listener();
  });
  return loading;
}

/** The household's scenes (residents and admins; `enabled` false reads nothing). */
export function useScenes(enabled: boolean): Scene[] {
  const list = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => scenes,
  );
  useEffect(() => {
    if (enabled && loading === null) void reloadScenes();
  }, [enabled]);
  return list;
}
