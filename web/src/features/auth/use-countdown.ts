import { useEffect, useState } from 'react';

/**
 * Whole seconds left until `deadlineMs`, re-read every second; 0 once it has passed (or when
 * there is no deadline).
 */
export function useSecondsLeft(deadlineMs: number | null): number {
  const read = () => (deadlineMs === null ? 0 : Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000)));
  const [left, setLeft] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read depends only on deadlineMs
  useEffect(() => {
    setLeft(read());
    if (deadlineMs === null) return;
    const timer = setInterval(() => {
      const next = read();
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadlineMs]);
  return left;
}
