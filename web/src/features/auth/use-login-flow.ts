import { useCallback, useRef, useState } from 'react';
import { useSessionControl } from '../../shared/session/session-control.js';
import type { SavedTokens } from '../../shared/session/token-store.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { authApi } from './auth.api.js';
import { type LoginResult, toLoginResult } from './login-result.js';
import { RESEND_COOLDOWN_MS, resendBlockedBy } from './resend-gate.js';

export interface PendingTwoFactor {
  userId: string;
  type: string;
}

/**
 * docs/screens.md#session / docs/screens.md#two-factor-form: signed out → pending 2FA → signed in, as the login screen drives it. The
 * state outlives the modal being closed, like the session's pending 2FA user id.
 */
export function useLoginFlow() {
  const { signIn, closeAuthModal } = useSessionControl();
  const { showToast } = useToast();
  const [pending, setPending] = useState<PendingTwoFactor | null>(null);
  const [loading, setLoading] = useState(false);
  const resend = useRef({ inFlight: false, cooldownUntil: 0 });

  const finish = useCallback(
    async (tokens: SavedTokens): Promise<string | null> => {
      const problem = await signIn(tokens);
      if (problem) return problem;
      setPending(null);
      closeAuthModal();
      showToast('Logged in successfully');
      return null;
    },
    [signIn, closeAuthModal, showToast],
  );

  const login = useCallback(
    async (email: string, password: string): Promise<LoginResult> => {
      setLoading(true);
      try {
        const answer = await authApi.loginStart(email.trim(), password);
        const result = toLoginResult(answer);
        if (result.twoFA && result.userId) {
          setPending({ userId: result.userId, type: result.type ?? 'email' });
          resend.current = { inFlight: false, cooldownUntil: 0 };
          return result;
        }
        if (!result.success) return result;
        const tokens = answer.data;
        if (!tokens.access_token) return { success: false, error: 'No access token in login response' };
        const problem = await finish({
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
        });
        return problem ? { success: false, error: problem } : result;
      } finally {
        setLoading(false);
      }
    },
    [finish],
  );

  const verify = useCallback(
    async (code: string): Promise<string | null> => {
      if (!pending) return 'No pending 2FA request';
      setLoading(true);
      try {
        const answer = await authApi.loginFinish(pending.userId, code.trim());
        if (!answer.success || !answer.data.access_token) return answer.error || '2FA verification failed';
        return await finish(answer.data);
      } finally {
        setLoading(false);
      }
    },
    [pending, finish],
  );

  /** Resolves with the message to show and whether it is an error. */
  const requestNewCode = useCallback(async (): Promise<{ message: string; ok: boolean }> => {
    if (!pending) return { message: 'No pending 2FA request', ok: false };
    const blocked = resendBlockedBy(resend.current, Date.now());
    if (blocked) return { message: blocked, ok: false };
    resend.current = { inFlight: true, cooldownUntil: Date.now() + RESEND_COOLDOWN_MS };
    const answer = await authApi.requestTwoFactorCode(pending.userId);
    resend.current.inFlight = false;
    if (!answer.success) {
      // The server keeps its own 30 s between codes (counted from the one login sent): follow it.
      const wait = answer.status === 429 ? /(\d+)s\b/.exec(answer.error ?? '') : null;
      resend.current.cooldownUntil = wait ? Date.now() + Number(wait[1]) * 1000 : 0;
      return { message: answer.error || 'Failed to send new code', ok: false };
    }
    return { message: 'New code sent to your email', ok: true };
  }, [pending]);

  const cancel = useCallback(() => {
    setPending(null);
    setLoading(false);
    showToast('Login cancelled');
  }, [showToast]);

  return { pending, loading, login, verify, requestNewCode, cancel };
}

export type LoginFlow = ReturnType<typeof useLoginFlow>;
