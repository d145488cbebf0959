import { LogIn } from 'lucide-react';
import { startOAuthNonce } from '../../shared/session/oauth-nonce.js';
import { type OAuthProvider, providerLoginPath } from './auth.api.js';

/** "Continue with {name}", shown only when the server has an identity provider configured. */
export function ProviderButtons({ providers }: { providers: OAuthProvider[] }) {
  if (providers.length === 0) return null;
  return (
    <div className="auth-providers">
      <div className="auth-divider" aria-hidden="true">
        <span>or</span>
      </div>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className="button button--secondary button--block"
          onClick={() =>
            window.location.assign(`${providerLoginPath(provider.id)}?nonce=${startOAuthNonce()}`)
          }
        >
          <LogIn size={18} aria-hidden="true" />
          Continue with {provider.name}
        </button>
      ))}
    </div>
  );
}
