import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { NOTIFICATION_TEXTS as T } from './notifications.messages.js';

const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

/**
 * docs/alerts.md#installable-app: without a network (a phone on a flaky connection opening the app
 * from its cached shell) a notice says the app is offline and reconnecting.
 */
export function OfflineNotice() {
  const [online, setOnline] = useState(isOnline);
  useEffect(() => {
    const update = () => setOnline(isOnline());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  if (online) return null;
  return (
    <div className="offline-notice" role="status">
      <WifiOff size={18} aria-hidden="true" />
      {T.offline}
    </div>
  );
}
