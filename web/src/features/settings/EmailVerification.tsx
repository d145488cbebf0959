import type { User } from '@hearth/contracts';
import { useState } from 'react';
import { CodeConfirmation } from './CodeConfirmation.js';
import { settingsApi } from './settings.api.js';
import type { AccountAction } from './use-account-action.js';

/** docs/screens.md#security-card: not requested → "Code Sent" → "Email Verified"; the code box is there while unverified. */
export function EmailVerification({ user, action }: { user: User; action: AccountAction }) {
  const [phase, setPhase] = useState<'idle' | 'sent' | 'verified'>('idle');
  const verified = user.email_confirmed || phase === 'verified';

  const request = async () => {
    if (await action.run('verifyRequest', () => settingsApi.requestEmailVerification(user.id)))
      setPhase('sent');
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
