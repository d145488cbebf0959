import { useEffect, useReducer } from 'react';

const secondsLeft = (deadlineMs: number | null) =>
  deadlineMs === null ? 0 : Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000));

/**
 * Whole seconds left until `deadlineMs`, re-rendered every second; 0 once it has passed (or
 * when there is no deadline). Read from the clock on every render, so a new deadline counts at
 * once rather than after the first tick.
 */
export function useSecondsLeft(deadlineMs: number | null): number {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (deadlineMs === null) return;
    const timer = setInterval(() => {
      tick();
      if (secondsLeft(deadlineMs) === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadlineMs]);
  return secondsLeft(deadlineMs);
}
