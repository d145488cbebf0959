import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { type AuthTab, useSessionControl } from '../../shared/session/session-control.js';
import { useFocusTrap, useScrollLock } from '../../shared/ui/use-focus-trap.js';
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
export function AuthModal() {
  const { authModal, setAuthTab, closeAuthModal } = useSessionControl();
  const flow = useLoginFlow();
  const providers = useOAuthProviders(authModal.open);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [forgotEmail, setForgotEmail] = useState('');
  const [email, setEmail] = useState('');
  const ref = useRef<HTMLDivElement>(null);
  const { open, tab } = authModal;

  useScrollLock(open);
  useFocusTrap(ref, open && !forgotOpen, closeAuthModal);

  const view = tab === 'signup' ? 'signup' : flow.pending ? '2fa' : 'login';
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the form shown changes
  useEffect(() => {
    if (!open) {
      setForgotOpen(false);
      return;
    }
    const panel = ref.current?.querySelector<HTMLElement>('.auth-panel');
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
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside closes; Escape and × do the same by keyboard
    <div
      className="modal-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && closeAuthModal()}
    >
      <div
        ref={ref}
        className="modal auth-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="auth-heading"
      >
        <button type="button" className="icon-button modal-close" aria-label="Close" onClick={closeAuthModal}>
          <X size={20} aria-hidden="true" />
        </button>
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
      </div>
      {forgotOpen && <ForgotPassword initialEmail={forgotEmail} onClose={() => setForgotOpen(false)} />}
    </div>
  );
}
