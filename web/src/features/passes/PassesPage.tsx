import { isManager, type Pass } from '@hearth/contracts';
import { useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { CreatedPassDialog } from './CreatedPassDialog.js';
import { NewPassDialog } from './NewPassDialog.js';
import { describeValidity, formatTime, STATUS_TONES } from './passes.format.js';
import { LEVEL_LABELS, PASSES_MESSAGES as M, STATUS_LABELS } from './passes.messages.js';
import { usePasses } from './use-passes.js';
import './passes.css';

/** docs/passes.md#pages: the Guest passes page (residents and admins). */
export default function PassesPage() {
  const { user, loading } = useSession();
  const allowed = isManager(user?.role);
  const state = usePasses(allowed);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Pass | null>(null);
  if (loading && !user) return <section className="passes-page" aria-busy="true" />;
  if (!user || !allowed) {
    return (
      <section className="passes-page">
        <p className="passes-denied">{M.noPermission}</p>
      </section>
    );
  }
  const { passes, timeZone, rooms, devices } = state;
  const roomName = (id: string) => rooms.find((room) => room.id === id)?.name ?? id;
  const deviceName = (id: string) => devices.find((device) => device.id === id)?.name ?? id;

  return (
    <section className="passes-page" aria-labelledby="passes-title">
      <header className="page-header">
        <div>
          <h1 id="passes-title">{M.title}</h1>
          <p className="passes-subtitle">{M.subtitle}</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
          {M.newPass}
        </button>
      </header>
      {state.error && (
        <div className="passes-alert" role="alert">
          {state.error}
        </div>
      )}
      <p className="passes-zone">{M.timeZone(timeZone)}</p>
      {passes && passes.length === 0 && <p className="passes-empty">{M.empty}</p>}
      <ul className="passes-list" aria-busy={passes === null}>
        {passes?.map((pass) => {
          const label = pass.label ?? M.untitled;
          const covers = [...pass.rooms.map(roomName), ...pass.devices.map(deviceName)].join(', ');
          return (
            <li key={pass.id} className="pass-row" data-pass-id={pass.id}>
              <div className="pass-row__main">
                <h2 className="pass-row__label">{label}</h2>
                <span className={`pill ${STATUS_TONES[pass.status]}`}>{STATUS_LABELS[pass.status]}</span>
                <span className="pill">{LEVEL_LABELS[pass.level]}</span>
              </div>
              <dl className="pass-row__facts">
                <div>
                  <dt>{M.covers}</dt>
                  <dd>{covers}</dd>
                </div>
                <div>
                  <dt>{M.validity}</dt>
                  <dd>{describeValidity(pass, timeZone)}</dd>
                </div>
                {pass.next_start && (
                  <div>
                    <dt>{M.nextStart}</dt>
                    <dd>{formatTime(pass.next_start, timeZone)}</dd>
                  </div>
                )}
              </dl>
              <p className="pass-row__by">{M.madeBy(pass.created_by.label)}</p>
              <div className="pass-row__actions">
                {pass.status !== 'expired' && (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    disabled={state.busy === pass.id}
                    aria-label={`${pass.paused ? M.resume : M.pause} ${label}`}
                    onClick={() => void state.setPaused(pass, !pass.paused)}
                  >
                    {pass.paused ? M.resume : M.pause}
                  </button>
                )}
                <button
                  type="button"
                  className="button button--danger button--small"
                  disabled={state.busy === pass.id}
                  aria-label={`${M.revoke} ${label}`}
                  onClick={() => setRevoking(pass)}
                >
                  {M.revoke}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {creating && (
        <NewPassDialog
          rooms={rooms}
          devices={devices}
          timeZone={timeZone}
          onClose={() => setCreating(false)}
          onCreate={async (body) => {
            const pass = await state.create(body);
            setCreating(false);
            setCreated(pass.url);
          }}
        />
      )}
      {created && <CreatedPassDialog url={created} onClose={() => setCreated(null)} />}
      {revoking && (
        <Dialog labelledBy="revoke-pass-title" size="small" onClose={() => setRevoking(null)}>
          <h2 id="revoke-pass-title" className="dialog-title">
            {M.revokeTitle}
          </h2>
          <p>{M.revokeText(revoking.label ?? M.untitled)}</p>
          <DialogActions leaveLabel={M.cancel} onLeave={() => setRevoking(null)}>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                const pass = revoking;
                setRevoking(null);
                void state.revoke(pass);
              }}
            >
              {M.revoke}
            </button>
          </DialogActions>
        </Dialog>
      )}
    </section>
  );
}
