import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from './ToastProvider.js';
import { useToast } from './toast-context.js';

function Trigger({ message }: { message: string }) {
  const { showToast } = useToast();
  return (
    <button type="button" onClick={() => showToast(message)}>
      show
    </button>
  );
}

describe('ToastProvider', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows a message for 2500 ms', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Trigger message="Logged in successfully" />
      </ToastProvider>,
    );
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('status').textContent).toBe('Logged in successfully');
    act(() => vi.advanceTimersByTime(2499));
    expect(screen.getByRole('status').textContent).toBe('Logged in successfully');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
