import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { NOTIFICATION_TEXTS as T } from './notifications.messages.js';
import { notificationsLive } from './notifications-live.js';
import { registerServiceWorker } from './pwa.js';
import { useLiveNotifications } from './use-live-notifications.js';
import './notifications.css';

/**
 * docs/alerts.md#in-the-app: the header's bell with the unread count, live. While someone is signed
 * in it keeps the page's notification stream open; it also registers the service worker (the
 * installable app, Web Push).
 */
export function NotificationBell() {
  const { user } = useSession();
  const { unread } = useLiveNotifications();
  const signedIn = user !== null;

  useEffect(() => {
    if (!signedIn) return;
    notificationsLive.start();
    return () => notificationsLive.stop();
  }, [signedIn]);
  const navigate = useNavigate();
  useEffect(() => {
    registerServiceWorker();
    // A click on a push notification while the app is open (the service worker's message).
    const go = (event: Event) => navigate((event as CustomEvent<string>).detail);
    window.addEventListener('hearth:navigate', go);
    return () => window.removeEventListener('hearth:navigate', go);
  }, [navigate]);

  if (!signedIn) return null;
  return (
    <Link to="/notifications" className="icon-button notification-bell" aria-label={T.bell(unread)}>
      <Bell size={22} aria-hidden="true" />
      {unread > 0 && (
        <span className="notification-bell__count" data-testid="bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
