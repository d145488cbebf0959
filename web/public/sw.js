// Hearth's service worker (docs/alerts.md#installable-app): shows push messages, opens what a click
// on one is about, and keeps the app shell (the page, its hashed scripts and styles, the icons) so
// a phone on a flaky connection opens the app. It never keeps an API answer, a token or anything
// sent with credentials in the Authorization header.

const SHELL = 'hearth-shell-v1';
const PAGE = '/index.html';
/** Files the shell needs besides the hashed assets (which are kept as the page loads them). */
const STATIC = ['/', '/manifest.webmanifest', '/favicon.svg', '/icon-192.png', '/icon-512.png'];

/** The page and what it loads at once (its hashed scripts and styles, named in it). */
async function keepShell() {
  const cache = await caches.open(SHELL);
  await cache.addAll(STATIC);
  const page = await cache.match('/');
  const html = page ? await page.text() : '';
  const assets = [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) || [])];
  await cache.addAll(assets);
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** Only the shell: never the API, the stream, health checks, or anything personal. */
function isShell(request, url) {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  if (request.headers.has('authorization')) return false;
  if (/^\/(api|ws|healthz)(\/|$)/.test(url.pathname) || url.pathname.startsWith('/pictures')) return false;
  return request.mode === 'navigate' || url.pathname.startsWith('/assets/') || STATIC.includes(url.pathname);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!isShell(request, url)) return;
  if (request.mode === 'navigate') {
    // The page: from the network when there is one (then kept as "/"), else the kept one.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && response.headers.get('content-type')?.includes('text/html')) {
            const copy = response.clone();
            caches.open(SHELL).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() =>
          caches
            .match('/')
            .then((kept) => kept || caches.match(PAGE))
            .then((kept) => kept || Response.error()),
        ),
    );
    return;
  }
  // Hashed assets never change; icons and the manifest are refreshed in the background.
  event.respondWith(
    caches.match(request).then((kept) => {
      const fresh = fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(SHELL).then((cache) => cache.put(request, copy));
        }
        return response;
      });
      return kept || fresh;
    }),
  );
});

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: 'Hearth', body: event.data ? event.data.text() : '' };
  }
  const title = message.title || 'Hearth';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || '',
      tag: message.tag || undefined,
      renotify: Boolean(message.tag),
      requireInteraction: message.severity === 'critical',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: {
        url: typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/notifications',
      },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url || '/notifications';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // The open app goes there itself (no reload); focusing may be refused outside a real click.
        open.postMessage({ type: 'navigate', url });
        await open.focus().catch(() => {});
        return;
      }
      await self.clients.openWindow(url);
    }),
  );
});
