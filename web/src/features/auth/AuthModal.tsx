import { useEffect, useState } from 'react';
import { type AuthTab, useSessionControl } from '../../shared/session/session-control.js';
import { Dialog } from '../../shared/ui/Dialog.js';
import { ForgotPassword } from './ForgotPassword.js';
import { LoginForm } from './LoginForm.js';
import { ProviderButtons } from './ProviderButtons.js';
import { SignUpForm } from './SignUpForm.js';
import { TwoFactorForm } from './TwoFactorForm.js';
import { useLoginFlow } from './use-login-flow.js';
import { useOAuthProviders } from './use-providers.js';
import './auth.css';

const TABS: { id: AuthTab; label: string }[] = [
  { id: 'login', label: 'Log In' },
  { id: 'signup', label: 'Sign Up' },
];

/**
 * docs/screens.md#auth-modal: the auth modal. Closes on a click outside, on "×" and on Escape; keeps focus inside
 * and the page from scrolling while open.
 */
export default function AuthModal() {
  const { authModal, setAuthTab, closeAuthModal } = useSessionControl();
  const flow = useLoginFlow();
  const providers = useOAuthProviders(authModal.open);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [forgotEmail, setForgotEmail] = useState('');
  const [email, setEmail] = useState('');
  const { open, tab } = authModal;

  const view = tab === 'signup' ? 'signup' : flow.pending ? '2fa' : 'login';
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the form shown changes
  useEffect(() => {
    if (!open) {
      setForgotOpen(false);
      return;
    }
    const panel = document.getElementById('auth-panel');
    if (panel && !panel.contains(document.activeElement)) {
      panel.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }, [open, view]);

  if (!open) return null;

  const onTabKey = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = tab === 'login' ? 'signup' : 'login';
    setAuthTab(next);
    document.getElementById(`auth-tab-${next}`)?.focus();
  };

  return (
    <Dialog labelledBy="auth-heading" onClose={closeAuthModal} size="medium" className="auth-modal">
      <div className="auth-tabs" role="tablist" aria-label="Account">
        {TABS.map((item) => (
          <button
            key={item.id}
            id={`auth-tab-${item.id}`}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            aria-controls="auth-panel"
            tabIndex={tab === item.id ? 0 : -1}
            className="auth-tab"
            onClick={() => setAuthTab(item.id)}
            onKeyDown={onTabKey}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div id="auth-panel" className="auth-panel" role="tabpanel" aria-labelledby={`auth-tab-${tab}`}>
        {view === 'signup' && (
          <SignUpForm
            onSignedUp={(address) => {
              setEmail(address);
              setAuthTab('login');
            }}
          >
            <ProviderButtons providers={providers} />
          </SignUpForm>
        )}
        {view === '2fa' && flow.pending && <TwoFactorForm flow={flow} pending={flow.pending} />}
        {view === 'login' && (
          <LoginForm
            key={email}
            flow={flow}
            initialEmail={email}
            onForgotPassword={(typed) => {
              setForgotEmail(typed);
              setForgotOpen(true);
            }}
          >
            <ProviderButtons providers={providers} />
          </LoginForm>
        )}
      </div>
      {forgotOpen && (
        <ForgotPassword
          initialEmail={forgotEmail}
          providers={providers}
          onClose={() => setForgotOpen(false)}
        />
      )}
    </Dialog>
  );
}
