import type { User } from '@hearth/contracts';
import { useState } from 'react';
import { CodeConfirmation } from './CodeConfirmation.js';
import { settingsApi } from './settings.api.js';
import type { AccountAction } from './use-account-action.js';

/** docs/screens.md#security-card: disabled → "Code Sent" → "2FA Enabled". */
export function TwoFactorSetup({ user, action }: { user: User; action: AccountAction }) {
  const [phase, setPhase] = useState<'idle' | 'sent' | 'enabled'>('idle');
  const enabled = user.two_factor_enabled || phase === 'enabled';

  const setup = async () => {
    if (await action.run('twoFactorSetup', () => settingsApi.setupTwoFactor(user.id))) setPhase('sent');
  };
  const confirm = async (code: string) => {
    const ok = await action.run('twoFactorVerify', () => settingsApi.verifyTwoFactor(user.id, code));
    if (ok) setPhase('enabled');
    return ok;
  };

  return (
    <div className="settings-security-item">
      <div className="settings-security-item__head">
        <span className="settings-security-item__label">Two-Factor Authentication</span>
        <span className={`badge ${enabled ? 'tone-success' : 'tone-muted'}`}>
          {enabled ? 'Enabled' : 'Disabled'}
        </span>
        <button
          type="button"
          className="button button--secondary"
          onClick={setup}
          disabled={enabled || phase === 'sent' || action.busy === 'twoFactorSetup'}
        >
          {enabled ? '2FA Enabled' : phase === 'sent' ? 'Code Sent' : 'Enable 2FA'}
        </button>
      </div>
      {phase === 'sent' && !enabled && (
        <CodeConfirmation
          label="2FA Code"
          submitLabel="Enable 2FA"
          busy={action.busy === 'twoFactorVerify'}
          onConfirm={confirm}
        />
      )}
    </div>
  );
}
