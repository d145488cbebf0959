import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSecondsLeft } from './use-countdown.js';

function Countdown({ deadline }: { deadline: number | null }) {
  const left = useSecondsLeft(deadline);
  return <p>{left > 0 ? `You can try again in ${left}s` : 'ready'}</p>;
}

describe('useSecondsLeft', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('ticks down each second and clears at 0', () => {
    render(<Countdown deadline={1_000_000 + 3000} />);
    expect(screen.getByText('You can try again in 3s')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('You can try again in 2s')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('You can try again in 1s')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('ready')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows nothing without a deadline', () => {
    render(<Countdown deadline={null} />);
    expect(screen.getByText('ready')).toBeTruthy();
  });
});
