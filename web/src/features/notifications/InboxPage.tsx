import {
  NOTIFICATION_KINDS,
  NOTIFICATION_STATUSES,
  type NotificationKind,
  type NotificationStatus,
  type NotificationView,
  type RoomsResponse,
} from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.js';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { notificationsApi } from './notifications.api.js';
import { KIND_NAMES, STATUS_NAMES, NOTIFICATION_TEXTS as T } from './notifications.messages.js';
import { notificationsLive } from './notifications-live.js';
import './notifications.css';

const SEVERITY_TONE = { info: 'tone-muted', warning: 'tone-warning', critical: 'tone-danger' } as const;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** docs/alerts.md#in-the-app: the inbox, filtered by status, kind and room (kept in the address). */
export default function InboxPage() {
  const { user } = useSession();
  const { showToast } = useToast();
  const [params, setParams] = useSearchParams();
  const status = (NOTIFICATION_STATUSES as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as NotificationStatus)
    : 'all';
  const kind = (NOTIFICATION_KINDS as readonly string[]).includes(params.get('kind') ?? '')
    ? (params.get('kind') as NotificationKind)
    : '';
  const room = params.get('room_id') ?? '';
  const [items, setItems] = useState<NotificationView[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [rooms, setRooms] = useState<RoomsResponse['rooms']>([]);
  const [muted, setMuted] = useState<Set<string>>(new Set());
  const manager = user?.role === 'admin' || user?.role === 'resident';

  const load = useCallback(async () => {
    const result = await notificationsApi.list({
      status,
      kind: kind || undefined,
      room_id: room || undefined,
    });
    if (!result.success) return setFailed(true);
    setFailed(false);
    setItems(result.data.notifications);
    setNext(result.data.next_cursor);
  }, [status, kind, room]);

  useEffect(() => {
    void load();
    // A new or changed notification (the live stream): the page reads its first page again.
    return notificationsLive.onChange(() => void load());
  }, [load]);
  useEffect(() => {
    void api.get<RoomsResponse>('/api/rooms').then((result) => result.success && setRooms(result.data.rooms));
    void notificationsApi.mutes().then((result) => {
      if (result.success) setMuted(new Set(result.data.devices.map((each) => each.device_id)));
    });
  }, []);

  const more = async () => {
    if (!next) return;
    const result = await notificationsApi.list({
      status,
      kind: kind || undefined,
      room_id: room || undefined,
      cursor: next,
    });
    if (!result.success) return showToast(result.error ?? T.loadFailed);
    setItems((before) => [...(before ?? []), ...result.data.notifications]);
    setNext(result.data.next_cursor);
  };
  const filter = (name: string, value: string) => {
    const copy = new URLSearchParams(params);
    if (value) copy.set(name, value);
    else copy.delete(name);
    setParams(copy, { replace: true });
  };
  const act = async (call: () => Promise<{ success: boolean; error?: string }>) => {
    const result = await call();
    if (!result.success) showToast(result.error ?? T.actionFailed);
    await load();
  };
  const toggleMute = async (deviceId: string) => {
    const mute = !muted.has(deviceId);
    const result = await notificationsApi.setMuted(deviceId, mute);
    if (!result.success) return showToast(result.error ?? T.actionFailed);
    setMuted((before) => {
      const copy = new Set(before);
      if (mute) copy.add(deviceId);
      else copy.delete(deviceId);
      return copy;
    });
    showToast(mute ? T.muted : T.unmuted);
    await load();
  };

  return (
    <section className="inbox">
      <header className="inbox__header">
        <h1>{T.inboxTitle}</h1>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => act(notificationsApi.readAll)}
        >
          {T.markAllRead}
        </button>
      </header>
      <div className="inbox__filters">
        <label>
          <span>{T.filterStatus}</span>
          <select
            className="select"
            value={status}
            onChange={(event) => filter('status', event.target.value === 'all' ? '' : event.target.value)}
          >
            {NOTIFICATION_STATUSES.map((each) => (
              <option key={each} value={each}>
                {STATUS_NAMES[each]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{T.filterKind}</span>
          <select className="select" value={kind} onChange={(event) => filter('kind', event.target.value)}>
            <option value="">{T.anyKind}</option>
            {NOTIFICATION_KINDS.map((each) => (
              <option key={each} value={each}>
                {KIND_NAMES[each]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{T.filterRoom}</span>
          <select className="select" value={room} onChange={(event) => filter('room_id', event.target.value)}>
            <option value="">{T.anyRoom}</option>
            {rooms.map((each) => (
              <option key={each.id} value={each.id}>
                {each.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {failed && <p className="inbox__empty">{T.loadFailed}</p>}
      {items?.length === 0 && (
        <p className="inbox__empty">{status === 'all' && !kind && !room ? T.empty : T.emptyFiltered}</p>
      )}
      <ul className="inbox__list">
        {items?.map((item) => (
          <li
            key={item.id}
            className={`notification${item.read ? '' : ' notification--unread'}`}
            data-testid="notification"
          >
            <div className="notification__head">
              <span className={`pill ${item.resolved_at ? 'tone-success' : SEVERITY_TONE[item.severity]}`}>
                {item.resolved_at ? T.resolved : KIND_NAMES[item.kind]}
              </span>
              <strong className="notification__title">{item.title}</strong>
              <time dateTime={item.updated_at}>{when(item.updated_at)}</time>
            </div>
            <p className="notification__body">{item.body}</p>
            {item.acknowledged_by && (
              <p className="notification__ack">{T.acknowledged(item.acknowledged_by.name)}</p>
            )}
            <div className="notification__actions">
              {!item.acknowledged_at && !item.resolved_at && (
                <button
                  type="button"
                  className="button button--primary button--small"
                  onClick={() => act(() => notificationsApi.acknowledge(item.id))}
                >
                  {T.acknowledge}
                </button>
              )}
              {!item.read && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => act(() => notificationsApi.read(item.id))}
                >
                  {T.markRead}
                </button>
              )}
              {item.device_id && (
                <Link
                  className="button button--ghost button--small"
                  to={`/devices/${encodeURIComponent(item.device_id)}`}
                >
                  {T.openDevice}
                </Link>
              )}
              {item.device_id && manager && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => toggleMute(item.device_id as string)}
                >
                  {muted.has(item.device_id) ? T.unmute : T.mute}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {next && (
        <button type="button" className="button button--secondary" onClick={more}>
          {T.loadMore}
        </button>
      )}
    </section>
  );
}
