import { type Automation, type AutomationRun, isManager } from '@hearth/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { AutomationBuilder } from './AutomationBuilder.js';
import { automationsApi } from './automations.api.js';
import { AUTOMATIONS_MESSAGES as M, RUN_STATUS_LABELS, RUN_STATUS_TONES } from './automations.messages.js';
import { type Names, ruleWords } from './automations.words.js';
import type { Catalogue } from './PartEditors.js';
import { TraceView } from './TraceView.js';
import { useLiveAutomations } from './use-live-automations.js';
import './automations.css';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : M.never);

/** docs/automations.md#page: the Automations page (residents and admins). */
export default function AutomationsPage() {
  const { user, loading } = useSession();
  const allowed = isManager(user?.role);
  const { showToast } = useToast();
  const [automations, setAutomations] = useState<Automation[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [zone, setZone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [catalogue, setCatalogue] = useState<Catalogue>({
    devices: [],
    scenes: [],
    automations: [],
    people: [],
  });
  const [editing, setEditing] = useState<Automation | 'new' | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [runs, setRuns] = useState<AutomationRun[] | null>(null);
  const [deleting, setDeleting] = useState<Automation | null>(null);

  const load = useCallback(async () => {
    const result = await automationsApi.list();
    if (!result.success) return setError(result.error ?? null);
    setError(null);
    setAutomations(result.data.automations);
    setCursor(result.data.next_cursor);
    setZone(result.data.time_zone);
  }, []);
  const more = async () => {
    if (!cursor) return;
    const result = await automationsApi.list(cursor);
    if (!result.success) return;
    setAutomations((before) => [...(before ?? []), ...result.data.automations]);
    setCursor(result.data.next_cursor);
  };
  const readRuns = useCallback(async (id: string) => {
    const result = await automationsApi.runs(id);
    if (result.success) setRuns(result.data.runs);
  }, []);

  useEffect(() => {
    if (!allowed) return;
    void load();
    void (async () => {
      const [devices, scenes, people] = await Promise.all([
        automationsApi.devices(),
        automationsApi.scenes(),
        automationsApi.people(),
      ]);
      setCatalogue((before) => ({
        ...before,
        devices: devices.success && Array.isArray(devices.data) ? devices.data : [],
        scenes: scenes.success ? scenes.data.scenes : [],
        people: people.success
          ? people.data.users.map((each) => ({
              id: each.id,
              name: `${each.first_name ?? ''} ${each.last_name ?? ''}`.trim() || each.email,
            }))
          : [],
      }));
    })();
  }, [allowed, load]);
  useEffect(() => {
    setCatalogue((before) => ({
      ...before,
      automations: (automations ?? []).map((each) => ({ id: each.id, name: each.name })),
    }));
  }, [automations]);

  useLiveAutomations(allowed, (_topic, payload) => {
    void load();
    const id = payload.id ?? payload.automation_id;
    if (open && id === open) void readRuns(open);
  });

  const names = useMemo<Names>(() => {
    const device = new Map(catalogue.devices.map((each) => [each.id, each.name]));
    const scene = new Map(catalogue.scenes.map((each) => [each.id, each.name]));
    const automation = new Map(catalogue.automations.map((each) => [each.id, each.name]));
    const person = new Map(catalogue.people.map((each) => [each.id, each.name]));
    return {
      device: (id) => device.get(id) ?? id,
      scene: (id) => scene.get(id) ?? id,
      automation: (id) => automation.get(id) ?? id,
      person: (id) => person.get(id) ?? id,
    };
  }, [catalogue]);

  if (loading && !user) return <section className="automations-page" aria-busy="true" />;
  if (!user || !allowed)
    return (
      <section className="automations-page">
        <p className="automations-denied">{M.noPermission}</p>
      </section>
    );

  const toggle = async (automation: Automation) => {
    const result = await automationsApi.update(automation.id, { enabled: !automation.enabled });
    if (!result.success) showToast(result.error ?? '');
    await load();
  };
  const runNow = async (automation: Automation) => {
    const result = await automationsApi.run(automation.id);
    showToast(result.success ? M.ran : (result.error ?? ''));
    setOpen(automation.id);
    await readRuns(automation.id);
  };
  const remove = async (automation: Automation) => {
    const result = await automationsApi.remove(automation.id);
    setDeleting(null);
    showToast(result.success ? M.deleted : (result.error ?? ''));
    if (open === automation.id) setOpen(null);
    await load();
  };

  return (
    <section className="automations-page" aria-labelledby="automations-title">
      <header className="page-header">
        <div>
          <h1 id="automations-title">{M.title}</h1>
          <p className="automations-subtitle">{M.subtitle}</p>
        </div>
        {editing === null && (
          <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
            {M.newAutomation}
          </button>
        )}
      </header>
      {error && (
        <div className="automations-alert" role="alert">
          {error}
        </div>
      )}
      {editing !== null && (
        <AutomationBuilder
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing === 'new' ? null : editing}
          catalogue={catalogue}
          names={names}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            showToast(M.saved);
            setOpen(saved.id);
            void load();
            void readRuns(saved.id);
          }}
        />
      )}
      {zone && <p className="automations-zone">{M.timeZone(zone)}</p>}
      {automations && automations.length === 0 && <p className="automations-empty">{M.empty}</p>}
      <ul className="automations-list" aria-busy={automations === null}>
        {automations?.map((automation) => (
          <li key={automation.id} className="automation-row" data-automation-id={automation.id}>
            <div className="automation-row__main">
              <button
                type="button"
                role="switch"
                aria-checked={automation.enabled}
                aria-label={`${M.enabled}: ${automation.name}`}
                className="switch switch--small"
                onClick={() => void toggle(automation)}
              >
                <span className="switch-thumb" />
              </button>
              <button
                type="button"
                className="automation-row__name"
                aria-expanded={open === automation.id}
                onClick={() => {
                  const next = open === automation.id ? null : automation.id;
                  setOpen(next);
                  setRuns(null);
                  if (next) void readRuns(next);
                }}
              >
                {automation.name}
              </button>
              <span className="automation-row__last">
                {M.lastRun}:{' '}
                {automation.last_run ? (
                  <>
                    <span className={`pill ${RUN_STATUS_TONES[automation.last_run.status]}`}>
                      {RUN_STATUS_LABELS[automation.last_run.status]}
                    </span>{' '}
                    {when(automation.last_run.at)}
                  </>
                ) : (
                  M.never
                )}
              </span>
              <span className="automation-row__next">
                {M.nextRun}: {automation.next_run ? when(automation.next_run) : M.none}
              </span>
              <span className="automation-row__tools">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => void runNow(automation)}
                >
                  {M.runNow}
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => setEditing(automation)}
                >
                  {M.edit}
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => setDeleting(automation)}
                >
                  {M.delete}
                </button>
              </span>
            </div>
            <p className="automation-row__words">{ruleWords(automation, names)}</p>
            {automation.paused_reason && (
              <p className="automation-row__paused pill tone-warning">{M.paused(automation.paused_reason)}</p>
            )}
            {open === automation.id && <TraceView automation={automation} runs={runs} names={names} />}
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className="button button--secondary" onClick={() => void more()}>
          {M.loadMore}
        </button>
      )}
      {deleting && (
        <Dialog labelledBy="automation-delete-title" size="small" onClose={() => setDeleting(null)}>
          <h2 id="automation-delete-title">{M.deleteTitle(deleting.name)}</h2>
          <p>{M.deleteBody}</p>
          <DialogActions leaveLabel={M.cancel} onLeave={() => setDeleting(null)}>
            <button type="button" className="button button--danger" onClick={() => void remove(deleting)}>
              {M.delete}
            </button>
          </DialogActions>
        </Dialog>
      )}
    </section>
  );
}
