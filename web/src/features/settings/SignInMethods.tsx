import type { IdentityView } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { ConfirmPasswordDialog } from './ConfirmPasswordDialog.js';
import { settingsApi } from './settings.api.js';
import type { AccountAction } from './use-account-action.js';

type Provider = { id: string; name: string };

/**
 * Settings → Sign-in methods (issue 11 item 5): the identity providers linked to this account,
 * "Connect {provider}" (only here, after a full sign-in; never by e-mail) and "Disconnect".
 * Connecting needs a sign-in within the last 5 minutes (issue 32 item 12): when the server asks
 * for the password, a dialog asks for it and the connect goes on.
 */
export function SignInMethods({ action }: { action: AccountAction }) {
  const [providers, setProviders] = useState<Provider[]>([]);
  const [linked, setLinked] = useState<IdentityView[]>([]);
  const [confirming, setConfirming] = useState<{ provider: Provider; reason: string } | null>(null);
  const load = useCallback(async () => {
    const [offered, mine] = await Promise.all([settingsApi.providers(), settingsApi.identities()]);
    setProviders(offered.success ? (offered.data?.providers ?? []) : []);
    setLinked(mine.success ? (mine.data?.identities ?? []) : []);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  if (providers.length === 0 && linked.length === 0) return null;

  const connect = async (provider: Provider) => {
    const result = await settingsApi.connect(provider.id);
    if (result.success && result.data?.url) return window.location.assign(result.data.url);
    const reauth = (result.data as { reauth?: unknown } | null)?.reauth;
    if (result.status === 403 && reauth === 'password') {
      setConfirming({ provider, reason: result.error ?? `Enter your password to connect ${provider.name}` });
      return;
    }
    action.setStatus({ text: result.error ?? `Failed to connect ${provider.name}`, tone: 'error' });
  };
  const disconnect = async (identity: IdentityView) => {
    const result = await settingsApi.disconnect(identity.provider);
    action.setStatus(
      result.success
        ? { text: `${identity.name} disconnected`, tone: 'success' }
        : { text: result.error ?? `Failed to disconnect ${identity.name}`, tone: 'error' },
    );
    await load();
  };

  const unlinked = providers.filter(
    (provider) => !linked.some((identity) => identity.provider === provider.id),
  );
  return (
    <section className="settings-card" aria-labelledby="settings-methods-title">
      <h3 id="settings-methods-title" className="settings-card__title">
        Sign-in methods
      </h3>
      {linked.map((identity) => (
        <div key={identity.provider} className="settings-security-item">
          <div className="settings-security-item__head">
            <span className="settings-security-item__label">
              {identity.name}
              {identity.email ? ` (${identity.email})` : ''}
            </span>
            <span className="badge tone-success">Connected</span>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void disconnect(identity)}
            >
              Disconnect
            </button>
          </div>
        </div>
      ))}
      {unlinked.map((provider) => (
        <div key={provider.id} className="settings-security-item">
          <div className="settings-security-item__head">
            <span className="settings-security-item__label">{provider.name}</span>
            <span className="badge tone-muted">Not connected</span>
            <button type="button" className="button button--secondary" onClick={() => void connect(provider)}>
              Connect {provider.name}
            </button>
          </div>
        </div>
      ))}
      {confirming && (
        <ConfirmPasswordDialog
          reason={confirming.reason}
          onCancel={() => setConfirming(null)}
          onConfirmed={() => {
            setConfirming(null);
            void connect(confirming.provider);
          }}
        />
      )}
    </section>
  );
}
