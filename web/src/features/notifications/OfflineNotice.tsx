import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { NOTIFICATION_TEXTS as T } from './notifications.messages.js';

/** How often an offline page asks again, and how long after loading it first asks. */
const RETRY_MS = 5000;
const FIRST_CHECK_MS = 1000;

/** Whether Hearth answers (the browser's own online flag is not enough: a captive or dead Wi-Fi says online). */
async function reachable(): Promise<boolean> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return false;
  try {
    await fetch('/healthz', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * docs/alerts.md#installable-app: without a connection to Hearth (a phone on a flaky connection
 * opening the app from its kept shell) a notice says the app is offline and reconnecting, until
 * Hearth answers again.
 */
export function OfflineNotice() {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const check = async () => {
      clearTimeout(timer);
      const ok = await reachable();
      if (stopped) return;
      setOnline(ok);
      if (!ok) timer = setTimeout(check, RETRY_MS);
    };
    const soon = () => void check();
    timer = setTimeout(soon, FIRST_CHECK_MS);
    window.addEventListener('online', soon);
    window.addEventListener('offline', soon);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', soon);
      window.removeEventListener('offline', soon);
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
