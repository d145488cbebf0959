import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../shared/toast/toast-context.js';
import { notificationsApi } from './notifications.api.js';
import { NOTIFICATION_TEXTS as T } from './notifications.messages.js';
import { useLiveNotifications } from './use-live-notifications.js';

/**
 * docs/alerts.md#in-the-app: an open critical incident nobody has acknowledged shows on every page,
 * until someone acknowledges it (in any browser of the household: the stream ends it everywhere).
 */
export function CriticalBanner() {
  const { critical } = useLiveNotifications();
  const { showToast } = useToast();
  const [busy, setBusy] = useState(false);
  const first = critical[0];
  if (!first) return null;
  const acknowledge = async () => {
    setBusy(true);
    const result = await notificationsApi.acknowledge(first.id);
    setBusy(false);
    if (!result.success) showToast(result.error ?? T.actionFailed);
  };
  return (
    <div className="critical-banner" role="alert">
      <TriangleAlert size={22} aria-hidden="true" />
      <div className="critical-banner__text">
        <strong>{first.title}</strong>
        <span>{first.body}</span>
        {critical.length > 1 && (
          <Link to="/notifications?status=open&kind=safety">{T.bannerMore(critical.length - 1)}</Link>
        )}
      </div>
      <div className="critical-banner__actions">
        {first.device_id && (
          <Link
            className="button button--secondary button--small"
            to={`/devices/${encodeURIComponent(first.device_id)}`}
          >
            {T.openDevice}
          </Link>
        )}
        <button
          type="button"
          className="button button--danger button--small"
          disabled={busy}
          onClick={acknowledge}
        >
          {T.bannerAcknowledge}
        </button>
      </div>
    </div>
  );
}
