import { useSyncExternalStore } from 'react';

const query = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/** 'dark' or 'light' as the system says now; charts redraw with the theme's tokens when it changes. */
export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(
    (onChange) => {
      const media = query();
      media?.addEventListener('change', onChange);
      return () => media?.removeEventListener('change', onChange);
    },
    () => (query()?.matches ? 'dark' : 'light'),
    () => 'light',
  );
}

/** A colour of the token layer (web/src/app/global.css), as the current theme resolves it. */
export const token = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
