import { Flame } from 'lucide-react';
import { useParams } from 'react-router';
import { useDeviceIds } from '../devices/hooks/use-device-store.js';
import { PassTile } from './PassTile.js';
import { formatTime } from './passes.format.js';
import { GUEST_MESSAGES as G } from './passes.messages.js';
import { usePassHub } from './use-pass-hub.js';
import '../devices/devices.css';
import './passes.css';

/** docs/passes.md#pages: the guest's page at /pass/{token}: no sign-in, no app shell. */
export default function PassPage() {
  const { token = '' } = useParams();
  const hub = usePassHub(token);
  const ids = useDeviceIds(hub.store);
  const { state } = hub;
  const info = state.kind === 'loading' ? null : state.info;
  const title = info?.label ?? G.untitled;

  return (
    <div className="guest-page">
      <header className="guest-header">
        <span className="guest-brand">
          <Flame size={24} aria-hidden="true" />
          Hearth
        </span>
        {state.kind === 'open' && (
          <span className={`pill ${hub.live ? 'tone-success' : 'tone-muted'}`} role="status">
            {hub.live ? G.live : G.reconnecting}
          </span>
        )}
      </header>
      <main className="guest-main" aria-labelledby="guest-title">
        <h1 id="guest-title">{title}</h1>
        {state.kind === 'loading' && (
          <p className="guest-note" aria-busy="true">
            {G.loading}
          </p>
        )}
        {state.kind === 'closed' && (
          <div className="guest-closed" role="alert">
            <p>{state.message}</p>
            {state.message === G.failed && (
              <button type="button" className="button button--secondary" onClick={hub.retry}>
                {G.retry}
              </button>
            )}
          </div>
        )}
        {state.kind === 'open' && (
          <>
            <p className="guest-note">
              {state.info.level === 'control' ? G.canControl : G.canView}
              {state.info.ends_at && ` ${G.until(formatTime(state.info.ends_at, state.info.time_zone))}`}
            </p>
            <p className="guest-error" role="alert">
              {hub.error}
            </p>
            {ids.length === 0 && <p className="guest-note">{G.noDevices}</p>}
            <div className="device-grid">
              {ids.map((key) => (
                <PassTile
                  key={key}
                  store={hub.store}
                  deviceKey={key}
                  levelOf={hub.levelOf}
                  onSend={hub.send}
                />
              ))}
            </div>
          </>
        )}
      </main>
    </div>
  );
}
