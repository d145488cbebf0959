import { useCallback, useState } from 'react';

/** localStorage key of the collapsed room sections (docs/screens.md#group-by-room): a JSON list of section keys. */
export const COLLAPSED_KEY = 'hearth.devices.collapsedRooms';

function read(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? '[]');
    return new Set(
      Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [],
    );
  } catch {
    return new Set();
  }
}

/** Which room sections are collapsed, remembered per browser. */
export function useCollapsedSections() {
  const [collapsed, setCollapsed] = useState(read);
  const toggle = useCallback((key: string) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      try {
        localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
      } catch {
        // Private mode or full storage: the state holds for this page only.
      }
      return next;
    });
  }, []);
  return { collapsed, toggle };
}
