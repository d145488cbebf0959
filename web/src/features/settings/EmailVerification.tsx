import type { User } from '@hearth/contracts';
import { useState } from 'react';
import type { ApiResult } from '../../shared/api/client.js';
import { CodeConfirmation } from './CodeConfirmation.js';
import { settingsApi } from './settings.api.js';
import type { AccountAction } from './use-account-action.js';

/** The seconds left of the resend cooldown, when that is why a new code was refused. */
function cooldownOf(result: ApiResult): number | null {
  const retry = (result.data as { retry_after?: unknown } | null)?.retry_after;
  return !result.success && result.status === 429 && typeof retry === 'number' ? retry : null;
}

/**
 * What is true when the cooldown runs: a code is already on its way (the one mailed at sign-up,
 * or one asked for moments ago; the page can't tell which, so it says neither).
 */
export const codeAlreadySent = (seconds: number) =>
  `A code was already sent to your e-mail; enter it below, or request a new one in ${seconds}s`;

/** docs/screens.md#security-card: not requested → "Code Sent" → "Email Verified"; the code box is there while unverified. */
export function EmailVerification({ user, action }: { user: User; action: AccountAction }) {
  const [phase, setPhase] = useState<'idle' | 'sent' | 'verified'>('idle');
  const verified = user.email_confirmed || phase === 'verified';

  const request = async () => {
    let wait: number | null = null;
    const ok = await action.run('verifyRequest', async () => {
      const result = await settingsApi.requestEmailVerification(user.id);
      wait = cooldownOf(result);
      return result;
    });
    if (ok) setPhase('sent');
    // A cooldown is no failure: a code is already on its way (issue 11, "Also").
    else if (wait !== null) action.setStatus({ text: codeAlreadySent(wait), tone: 'info' });
  };
  const confirm = async (code: string) => {
    const ok = await action.run('verifyConfirm', () => settingsApi.confirmEmail(user.id, code));
    if (ok) setPhase('verified');
    return ok;
  };

  return (
    <div className="settings-security-item">
      <div className="settings-security-item__head">
        <span className="settings-security-item__label">Email Status</span>
        <span className={`badge ${verified ? 'tone-success' : 'tone-warning'}`}>
          {verified ? 'Verified' : 'Not Verified'}
        </span>
        <button
          type="button"
          className="button button--secondary"
          onClick={request}
          disabled={verified || phase === 'sent' || action.busy === 'verifyRequest'}
        >
          {verified ? 'Email Verified' : phase === 'sent' ? 'Code Sent' : 'Verify Email'}
        </button>
      </div>
      {/* Always offered while unverified: the mail sent at sign-up already carries a code. */}
      {!verified && (
        <CodeConfirmation
          label="Verification Code"
          submitLabel="Confirm Email"
          busy={action.busy === 'verifyConfirm'}
          onConfirm={confirm}
        />
      )}
    </div>
  );
}
