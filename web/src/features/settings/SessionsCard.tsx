import type { SessionView } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { settingsApi } from './settings.api.js';
import type { AccountAction } from './use-account-action.js';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Settings → Sessions (issue 11 item 4): every place the account is signed in (browser, device,
 * address, last use), signing one out, or all but this one.
 */
export function SessionsCard({ action }: { action: AccountAction }) {
  const [sessions, setSessions] = useState<SessionView[] | null>(null);
  const load = useCallback(async () => {
    const result = await settingsApi.sessions();
    setSessions(result.success ? (result.data?.sessions ?? []) : []);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const signOut = async (id: string) => {
    const result = await settingsApi.signOutSession(id);
    action.setStatus(
      result.success
        ? { text: 'Session signed out', tone: 'success' }
        : { text: result.error ?? 'Failed to sign out the session', tone: 'error' },
    );
    await load();
  };
  const signOutOthers = async () => {
    const result = await settingsApi.signOutOthers();
    action.setStatus(
      result.success
        ? { text: 'Signed out of all other sessions', tone: 'success' }
        : { text: result.error ?? 'Failed to sign out the other sessions', tone: 'error' },
    );
    await load();
  };

  const others = (sessions ?? []).filter((session) => !session.current);
  return (
    <section className="settings-card" aria-labelledby="settings-sessions-title">
      <h3 id="settings-sessions-title" className="settings-card__title">
        Sessions
      </h3>
      {sessions === null ? (
        <p className="settings-muted">Loading sessions…</p>
      ) : (
        <ul className="settings-sessions" aria-label="Active sessions">
          {sessions.map((session) => (
            <li key={session.id} className="settings-security-item">
              <div className="settings-security-item__head">
                <span className="settings-security-item__label">
                  {session.browser} · {session.device}
                  {session.current && <span className="badge tone-success">This device</span>}
                </span>
                {!session.current && (
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => void signOut(session.id)}
                  >
                    Sign out
                  </button>
                )}
              </div>
              <p className="settings-muted">
                {session.ip ?? 'Unknown address'} · last used {when(session.last_used_at)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <div className="settings-actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void signOutOthers()}
          disabled={others.length === 0}
        >
          Sign out of all other sessions
        </button>
      </div>
    </section>
  );
}
