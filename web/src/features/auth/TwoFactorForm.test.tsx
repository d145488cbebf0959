import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../shared/toast/ToastProvider.js';
import { TwoFactorForm } from './TwoFactorForm.js';
import { useLoginFlow } from './use-login-flow.js';

/** Drives the real flow: login start answers "2FA required", then the form is shown. */
function Harness() {
  const flow = useLoginFlow();
  return flow.pending ? (
    <TwoFactorForm flow={flow} pending={flow.pending} />
  ) : (
    <button type="button" onClick={() => flow.login('a@b.c', 'pw')}>
      start
    </button>
  );
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('Request New Code (docs/screens.md#two-factor-form)', () => {
  let requests: string[];

  beforeEach(() => {
    vi.useFakeTimers();
    requests = [];
    vi.stubGlobal('fetch', async (input: URL) => {
      const path = new URL(String(input)).pathname;
      requests.push(path);
      if (path === '/api/auth/login/start')
        return json(200, { '2fa_required': true, user_id: 'u1', '2fa_type': 'email' });
      return json(200, { message: 'sent' });
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const click = async (name: string) => {
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name }));
    });
  };

  it('sends a code, then holds further requests for 30 s', async () => {
    render(
      <ToastProvider>
        <Harness />
      </ToastProvider>,
    );
    await click('start');
    expect(screen.getByText('Check your email for the verification code')).toBeTruthy();

    await click('Request New Code');
    expect(screen.getByText('New code sent to your email')).toBeTruthy();
    expect(requests.filter((p) => p === '/api/auth/2fa/email/request')).toHaveLength(1);

    await click('Request New Code');
    expect(screen.getByText('Please wait 30s before requesting another code')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(29_000));
    await click('Request New Code');
    expect(screen.getByText('Please wait 1s before requesting another code')).toBeTruthy();
    expect(requests.filter((p) => p === '/api/auth/2fa/email/request')).toHaveLength(1);

    await act(async () => vi.advanceTimersByTime(1_000));
    await click('Request New Code');
    expect(screen.getByText('New code sent to your email')).toBeTruthy();
    expect(requests.filter((p) => p === '/api/auth/2fa/email/request')).toHaveLength(2);
  });

  it('cancels the pending login with "Login cancelled"', async () => {
    render(
      <ToastProvider>
        <Harness />
      </ToastProvider>,
    );
    await click('start');
    await click('Cancel Login');
    expect(screen.getByRole('button', { name: 'start' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Login cancelled');
  });
});
