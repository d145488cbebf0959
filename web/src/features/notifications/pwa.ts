/**
 * docs/alerts.md#installable-app: the service worker (web/public/sw.js) handles push messages and
 * clicks on notifications, and keeps the app shell for a flaky connection. Registered once the page
 * has loaded, off the boot's path.
 */
export function registerServiceWorker() {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
    // A click on a notification while the app is open: the service worker says where to go.
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type === 'navigate' && typeof data.url === 'string' && data.url.startsWith('/')) {
        window.dispatchEvent(new CustomEvent('hearth:navigate', { detail: data.url }));
      }
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/** Whether this is an iPhone or iPad (iPadOS reports itself as a Mac with touch). */
export function isIos(agent = navigator.userAgent, touchPoints = navigator.maxTouchPoints): boolean {
  return /iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && touchPoints > 1);
}

/** Whether the app runs from the Home Screen (as an installed app). */
export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as { standalone?: boolean }).standalone === true
  );
}
