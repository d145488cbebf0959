import type { AlertSettings, Device, NotificationPreferences } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../shared/api/client.js';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { notificationsApi } from './notifications.api.js';
import { NOTIFICATION_TEXTS as T } from './notifications.messages.js';
import { type PushState, pushState, turnPushOff, turnPushOn } from './push.js';
import { isIos, isStandalone } from './pwa.js';
import './notifications.css';

/** docs/alerts.md#channels: Settings → Notifications, each person's channels; the household's rules for admins. */
export function NotificationSettings() {
  const { user } = useSession();
  // The channels, rules and mutes are read only when asked for: opening Settings costs no request.
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-card" aria-labelledby="settings-notifications-title">
      <h3 id="settings-notifications-title" className="settings-card__title">
        {T.settingsTitle}
      </h3>
      <PushSwitch />
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? T.hideSettings : T.showSettings}
      </button>
      {open && (
        <>
          <Preferences />
          {user?.role === 'admin' && <HouseholdRules />}
          {(user?.role === 'admin' || user?.role === 'resident') && <MutedDevices />}
        </>
      )}
    </section>
  );
}

function PushSwitch() {
  const { showToast } = useToast();
  const [state, setState] = useState<PushState | null>(null);
  const ios = isIos();
  useEffect(() => {
    void pushState().then(setState, () => setState('unsupported'));
  }, []);
  const change = async (on: boolean) => {
    try {
      setState(await (on ? turnPushOn() : turnPushOff()));
    } catch (error) {
      showToast((error as Error).message || T.actionFailed);
    }
  };
  return (
    <div className="notification-settings__push">
      <div>
        <strong>{T.pushLabel}</strong>
        <p className="notification-settings__hint">
          {state === 'on' && T.pushOn}
          {state === 'off' && T.pushOff}
          {state === 'blocked' && T.pushBlocked}
          {state === 'unsupported' && !ios && T.pushUnsupported}
        </p>
        {ios && !isStandalone() && <p className="notification-settings__ios">{T.iosNote}</p>}
      </div>
      {(state === 'on' || state === 'off') && (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => change(state === 'off')}
        >
          {state === 'off' ? T.pushEnable : T.pushDisable}
        </button>
      )}
    </div>
  );
}

function Preferences() {
  const { showToast } = useToast();
  const [form, setForm] = useState<NotificationPreferences | null>(null);
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    void notificationsApi.preferences().then((result) => {
      if (!result.success) return;
      setForm(result.data);
      setQuiet(result.data.quiet_hours !== null);
    });
  }, []);
  if (!form) return null;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const body: NotificationPreferences = {
      ...form,
      webhook_url: form.webhook_url?.trim() ? form.webhook_url.trim() : null,
      quiet_hours: quiet ? (form.quiet_hours ?? { start: '22:00', end: '07:00' }) : null,
    };
    const result = await notificationsApi.savePreferences(body);
    showToast(result.success ? T.saved : (result.error ?? T.actionFailed));
    if (result.success) setForm(result.data);
  };
  const hours = form.quiet_hours ?? { start: '22:00', end: '07:00' };
  return (
    <form className="notification-settings" onSubmit={save}>
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={form.push}
          onChange={(event) => setForm({ ...form, push: event.target.checked })}
        />
        {T.pushPreference}
      </label>
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={form.email}
          onChange={(event) => setForm({ ...form, email: event.target.checked })}
        />
        {T.emailLabel}
      </label>
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={form.email_digest}
          onChange={(event) => setForm({ ...form, email_digest: event.target.checked })}
        />
        {T.digestLabel}
      </label>
      <label className="notification-settings__field">
        <span>{T.webhookLabel}</span>
        <input
          className="input"
          type="url"
          inputMode="url"
          placeholder="https://ntfy.sh/my-topic"
          value={form.webhook_url ?? ''}
          onChange={(event) => setForm({ ...form, webhook_url: event.target.value })}
        />
        <small className="notification-settings__hint">{T.webhookHint}</small>
      </label>
      <label className="notification-settings__check">
        <input type="checkbox" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} />
        {T.quietLabel}
      </label>
      {quiet && (
        <div className="notification-settings__quiet">
          <label>
            <span>{T.quietFrom}</span>
            <input
              className="input"
              type="time"
              value={hours.start}
              onChange={(event) => setForm({ ...form, quiet_hours: { ...hours, start: event.target.value } })}
            />
          </label>
          <label>
            <span>{T.quietTo}</span>
            <input
              className="input"
              type="time"
              value={hours.end}
              onChange={(event) => setForm({ ...form, quiet_hours: { ...hours, end: event.target.value } })}
            />
          </label>
          <small className="notification-settings__hint">{T.quietHint}</small>
        </div>
      )}
      <div className="settings-actions">
        <button type="submit" className="button button--primary button--small">
          {T.save}
        </button>
      </div>
    </form>
  );
}

function HouseholdRules() {
  const { showToast } = useToast();
  const [rules, setRules] = useState<AlertSettings | null>(null);
  useEffect(() => {
    void notificationsApi.alertSettings().then((result) => result.success && setRules(result.data));
  }, []);
  if (!rules) return null;
  const number = (value: string, fallback: number) =>
    value === '' ? fallback : Math.max(0, Math.round(Number(value)));
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await notificationsApi.saveAlertSettings(rules);
    showToast(result.success ? T.rulesSaved : (result.error ?? T.actionFailed));
  };
  return (
    <form className="notification-settings" onSubmit={save}>
      <h4 className="notification-settings__subtitle">{T.rulesTitle}</h4>
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={rules.offline_after_minutes !== null}
          onChange={(event) =>
            setRules({ ...rules, offline_after_minutes: event.target.checked ? 10 : null })
          }
        />
        {T.offlineOff}
      </label>
      {rules.offline_after_minutes !== null && (
        <label className="notification-settings__field">
          <span>{T.offlineAfter}</span>
          <input
            className="input"
            type="number"
            min={0}
            max={1440}
            value={rules.offline_after_minutes}
            onChange={(event) => setRules({ ...rules, offline_after_minutes: number(event.target.value, 0) })}
          />
        </label>
      )}
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={rules.battery_below !== null}
          onChange={(event) => setRules({ ...rules, battery_below: event.target.checked ? 15 : null })}
        />
        {T.batteryOff}
      </label>
      {rules.battery_below !== null && (
        <label className="notification-settings__field">
          <span>{T.batteryBelow}</span>
          <input
            className="input"
            type="number"
            min={1}
            max={90}
            value={rules.battery_below}
            onChange={(event) => setRules({ ...rules, battery_below: number(event.target.value, 15) })}
          />
        </label>
      )}
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={rules.safety}
          onChange={(event) => setRules({ ...rules, safety: event.target.checked })}
        />
        {T.safetyLabel}
      </label>
      <label className="notification-settings__check">
        <input
          type="checkbox"
          checked={rules.hub}
          onChange={(event) => setRules({ ...rules, hub: event.target.checked })}
        />
        {T.hubLabel}
      </label>
      <label className="notification-settings__field">
        <span>{T.repeatLabel}</span>
        <input
          className="input"
          type="number"
          min={1}
          max={1440}
          value={rules.repeat_critical_minutes}
          onChange={(event) =>
            setRules({ ...rules, repeat_critical_minutes: number(event.target.value, 15) })
          }
        />
      </label>
      <div className="settings-actions">
        <button type="submit" className="button button--primary button--small">
          {T.save}
        </button>
      </div>
    </form>
  );
}

function MutedDevices() {
  const { showToast } = useToast();
  const [devices, setDevices] = useState<Pick<Device, 'id' | 'name'>[] | null>(null);
  const load = useCallback(async () => {
    const mutes = await notificationsApi.mutes();
    if (!mutes.success) return;
    const ids = mutes.data.devices.map((each) => each.device_id);
    if (ids.length === 0) return setDevices([]);
    const listed = await api.get<Device[]>('/api/devicehub/devices', { ids: ids.join(',') });
    setDevices(listed.success ? listed.data : ids.map((id) => ({ id, name: id })));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  if (!devices) return null;
  const unmute = async (id: string) => {
    const result = await notificationsApi.setMuted(id, false);
    showToast(result.success ? T.unmuted : (result.error ?? T.actionFailed));
    await load();
  };
  return (
    <div className="notification-settings">
      <h4 className="notification-settings__subtitle">{T.mutedTitle}</h4>
      {devices.length === 0 && <p className="notification-settings__hint">{T.noneMuted}</p>}
      <ul className="notification-settings__muted">
        {devices.map((device) => (
          <li key={device.id}>
            <span>{device.name}</span>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => unmute(device.id)}
            >
              {T.unmute}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
