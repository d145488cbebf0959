import { useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { Dialog } from '../../shared/ui/Dialog.js';
import { NotificationSettings } from '../notifications/NotificationSettings.js';
import { ApiTokensCard } from './ApiTokensCard.js';
import { ChangePasswordForm } from './ChangePasswordForm.js';
import { ChangePictureModal } from './ChangePictureModal.js';
import { EmailVerification } from './EmailVerification.js';
import { ProfileCard } from './ProfileCard.js';
import { SessionsCard } from './SessionsCard.js';
import { SignInMethods } from './SignInMethods.js';
import { StatusLine } from './StatusLine.js';
import { TwoFactorSetup } from './TwoFactorSetup.js';
import { useAccountAction } from './use-account-action.js';
import './settings.css';

interface AccountSettingsProps {
  open: boolean;
  onClose(): void;
}

/** docs/screens.md#account-settings: the Account Settings overlay, opened from "Settings" in the profile popover. */
export default function AccountSettings({ open, onClose }: AccountSettingsProps) {
  const { user } = useSession();
  // Mounted only while open, so every opening starts from a clean state.
  if (!open || !user) return null;
  return <SettingsOverlay onClose={onClose} />;
}

function SettingsOverlay({ onClose }: { onClose(): void }) {
  const { user, logout } = useSession();
  const action = useAccountAction();
  const [pictureOpen, setPictureOpen] = useState(false);
  if (!user) return null;

  const signOut = async () => {
    onClose();
    await logout();
  };

  return (
    <Dialog
      labelledBy="settings-title"
      onClose={onClose}
      closeLabel="Close settings"
      focusClose
      className="settings"
    >
      <h2 id="settings-title" className="dialog-title">
        Account Settings
      </h2>
      <StatusLine status={action.status} />
      <ProfileCard user={user} action={action} onChangePhoto={() => setPictureOpen(true)} />
      <section className="settings-card" aria-labelledby="settings-security-title">
        <h3 id="settings-security-title" className="settings-card__title">
          Security
        </h3>
        <EmailVerification user={user} action={action} />
        <TwoFactorSetup user={user} action={action} />
        <ChangePasswordForm action={action} />
      </section>
      <SignInMethods action={action} />
      <SessionsCard action={action} />
      <NotificationSettings />
      <ApiTokensCard action={action} />
      <section className="settings-card" aria-labelledby="settings-account-title">
        <h3 id="settings-account-title" className="settings-card__title">
          Account Actions
        </h3>
        <div className="settings-actions">
          <button type="button" className="button button--danger" onClick={signOut}>
            Logout
          </button>
        </div>
      </section>
      {pictureOpen && (
        <ChangePictureModal
          onClose={() => setPictureOpen(false)}
          onChanged={(message) => {
            setPictureOpen(false);
            action.setStatus({ text: message, tone: 'success' });
          }}
        />
      )}
    </Dialog>
  );
}
