import type { User } from '@hearth/contracts';
import { useId, useRef, useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { CodeConfirmation } from './CodeConfirmation.js';
import { settingsApi } from './settings.api.js';
import { TWO_FACTOR_OFF } from './settings.messages.js';
import { TurnOffTwoFactorDialog } from './TurnOffTwoFactorDialog.js';
import type { AccountAction } from './use-account-action.js';

/**
 * docs/screens.md#security-card: disabled → "Code Sent" → "2FA Enabled", only once the address
 * is verified (the codes go to it; until then the button is off and says why); when enabled,
 * "Turn off 2FA" asks for the password and turns it off.
 */
export function TwoFactorSetup({ user, action }: { user: User; action: AccountAction }) {
  const { refreshUser } = useSession();
  const [phase, setPhase] = useState<'idle' | 'sent' | 'enabled'>('idle');
  const [turningOff, setTurningOff] = useState(false);
  // After turning it off, the keyboard focus goes to "Enable 2FA" (the button that opened the dialog is gone).
  const enableButton = useRef<HTMLButtonElement>(null);
  const whyId = useId();
  const enabled = user.two_factor_enabled || phase === 'enabled';
  const unverified = !enabled && !user.email_confirmed;

  const setup = async () => {
    if (await action.run('twoFactorSetup', () => settingsApi.setupTwoFactor(user.id))) setPhase('sent');
  };
  const confirm = async (code: string) => {
    const ok = await action.run('twoFactorVerify', () => settingsApi.verifyTwoFactor(user.id, code));
    if (ok) setPhase('enabled');
    return ok;
  };
  const turnedOff = async () => {
    setTurningOff(false);
    setPhase('idle');
    await refreshUser();
    action.setStatus({ text: TWO_FACTOR_OFF.done, tone: 'success' });
    enableButton.current?.focus();
  };

  return (
    <div className="settings-security-item">
      <div className="settings-security-item__head">
        <span className="settings-security-item__label">Two-Factor Authentication</span>
        <span className={`badge ${enabled ? 'tone-success' : 'tone-muted'}`}>
          {enabled ? 'Enabled' : 'Disabled'}
        </span>
        <button
          ref={enableButton}
          type="button"
          className="button button--secondary"
          onClick={setup}
          disabled={enabled || unverified || phase === 'sent' || action.busy === 'twoFactorSetup'}
          aria-describedby={unverified ? whyId : undefined}
        >
          {enabled ? '2FA Enabled' : phase === 'sent' ? 'Code Sent' : 'Enable 2FA'}
        </button>
        {enabled && (
          <button
            type="button"
            className="button button--ghost"
            aria-haspopup="dialog"
            onClick={() => setTurningOff(true)}
          >
            {TWO_FACTOR_OFF.button}
          </button>
        )}
      </div>
      {unverified && (
        <p id={whyId} className="settings-hint">
          {TWO_FACTOR_OFF.unverified}
        </p>
      )}
      {phase === 'sent' && !enabled && (
        <CodeConfirmation
          label="2FA Code"
          submitLabel="Enable 2FA"
          busy={action.busy === 'twoFactorVerify'}
          onConfirm={confirm}
        />
      )}
      {turningOff && (
        <TurnOffTwoFactorDialog onDone={() => void turnedOff()} onCancel={() => setTurningOff(false)} />
      )}
    </div>
  );
}
