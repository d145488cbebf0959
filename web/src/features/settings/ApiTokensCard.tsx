import type { ApiToken, Room } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { apiTokensApi } from './api-tokens.api.js';
import { describeToken } from './api-tokens.format.js';
import { SCOPE_PILLS, API_TOKEN_TEXTS as T } from './api-tokens.messages.js';
import { NewApiTokenDialog } from './NewApiTokenDialog.js';
import type { AccountAction } from './use-account-action.js';
import './api-tokens.css';

/**
 * Settings → API tokens (issue 38): the caller's tokens (an admin's: everyone's, with their
 * owner), with what each covers, when it was made, last used and ends; "New token" and "Revoke".
 */
export function ApiTokensCard({ action }: { action: AccountAction }) {
  const { user } = useSession();
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [rooms, setRooms] = useState<Room[]>([]);
  const [creating, setCreating] = useState(false);
  const load = useCallback(async () => {
    const [list, found] = await Promise.all([apiTokensApi.list(), apiTokensApi.rooms()]);
    setTokens(list.success ? (list.data?.tokens ?? []) : []);
    if (found.success) setRooms(found.data?.rooms ?? []);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (token: ApiToken) => {
    const result = await apiTokensApi.revoke(token.id);
    action.setStatus(
      result.success
        ? { text: T.revoked, tone: 'success' }
        : { text: result.error ?? T.revokeFailed, tone: 'error' },
    );
    await load();
  };
  const roomName = (id: string) => rooms.find((room) => room.id === id)?.name;

  return (
    <section className="settings-card" aria-labelledby="settings-tokens-title">
      <h3 id="settings-tokens-title" className="settings-card__title">
        {T.title}
      </h3>
      <p className="settings-muted">{T.intro}</p>
      {tokens === null ? (
        <p className="settings-muted">{T.loading}</p>
      ) : tokens.length === 0 ? (
        <p className="settings-muted">{T.empty}</p>
      ) : (
        <ul className="api-tokens" aria-label={T.title}>
          {tokens.map((token) => {
            const [covers, times] = describeToken(token, roomName);
            return (
              <li key={token.id} className="settings-security-item api-token">
                <div className="settings-security-item__head">
                  <span className="settings-security-item__label">
                    {token.name}
                    <span className={`pill ${token.scope === 'control' ? 'tone-warning' : 'tone-muted'}`}>
                      {SCOPE_PILLS[token.scope]}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={`${T.revoke} ${token.name}`}
                    onClick={() => void revoke(token)}
                  >
                    {T.revoke}
                  </button>
                </div>
                {token.owner.id !== user?.id && (
                  <p className="settings-muted">{T.owner(token.owner.label)}</p>
                )}
                <p className="settings-muted">{covers}</p>
                <p className="settings-muted">{times}</p>
              </li>
            );
          })}
        </ul>
      )}
      <div className="settings-actions">
        <button type="button" className="button button--secondary" onClick={() => setCreating(true)}>
          {T.newToken}
        </button>
      </div>
      {creating && (
        <NewApiTokenDialog rooms={rooms} onCreated={() => void load()} onClose={() => setCreating(false)} />
      )}
    </section>
  );
}
