import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { chromiumPath } from './support/browser.js';
import { type Account, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

/**
 * docs/alerts.md#installable-app, issue 36 acceptance 2 (in Chromium): the service worker registers,
 * the manifest is valid and installable, a push delivered with the DevTools protocol's
 * ServiceWorker.deliverPushMessage shows a notification and clicking it opens the device; offline,
 * the app opens from its kept shell with the offline notice, and nothing of the API is kept.
 */
describe('the installable app', () => {
  const suite = useE2e();
  let ada: Account;
  let page: Page;

  const shellKept = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        urls.push(...(await cache.keys()).map((request) => new URL(request.url).pathname));
      }
      return urls;
    });

  beforeAll(async () => {
    ada = await signUp(suite.server.url, { first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' });
    const { refreshToken } = await logIn(suite.server.url, ada.email, ada.password);
    page = await suite.page({ viewport: { width: 1280, height: 900 } });
    await page.context().grantPermissions(['notifications'], { origin: suite.server.url });
    await gotoWithToken(page, suite.server.url, refreshToken, '/activity');
    await page.getByRole('button', { name: `Account menu for ${ada.user_name}` }).waitFor();
  });

  it('registers the service worker, whose manifest is valid and installable', async () => {
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${suite.server.url}/`);
    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({
      name: 'Hearth',
      display: 'standalone',
      icons: expect.arrayContaining([
        expect.objectContaining({ src: '/icon-192.png', sizes: '192x192' }),
        expect.objectContaining({ src: '/icon-512.png', sizes: '512x512' }),
      ]),
    });
    await cdp.detach();
    // Installability is judged outside incognito (a browser context of the test is one): a profile of its own.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pwa-'));
    const installed = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const tab = installed.pages()[0] ?? (await installed.newPage());
      await tab.goto(suite.server.url);
      await tab.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      const session = await installed.newCDPSession(tab);
      const installable = await eventually(
        () => session.send('Page.getInstallabilityErrors'),
        (answer) => answer.installabilityErrors.length === 0,
      );
      expect(installable.installabilityErrors).toEqual([]);
    } finally {
      await installed.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it('shows a pushed message as a notification; a click on it opens the device', async () => {
    const cdp = await page.context().newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    const versions = new Map<string, { registrationId: string; status: string; runningStatus: string }>();
    const errors: string[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
      for (const version of event.versions) versions.set(version.versionId, version);
    });
    cdp.on('ServiceWorker.workerErrorReported', (event) => errors.push(event.errorMessage.errorMessage));
    await cdp.send('ServiceWorker.enable');
    const registration = await eventually(
      async () => registrations.find((each) => each.scopeURL === `${suite.server.url}/`),
      (found) => found !== undefined,
    );
    const registrationId = registration?.registrationId ?? '';
    // A push goes to the registration's active worker, so it waits until there is one.
    await eventually(
      async () => [...versions.values()].filter((each) => each.registrationId === registrationId),
      (list) => list.some((each) => each.status === 'activated'),
    );
    const message = {
      title: 'Bathroom leak: Leak detected',
      body: 'Since 03:12.',
      url: '/devices/bathroom-leak-id',
      tag: 'incident-1',
      severity: 'critical',
      notification_id: 'n1',
    };
    const notifications = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((each) => ({
          title: each.title,
          body: each.body,
          tag: each.tag,
          url: (each.data as { url?: string } | null)?.url,
        })),
      );
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: suite.server.url,
      registrationId,
      data: JSON.stringify(message),
    });
    // One push, waited for up to 30 s (a worker started on CI's busy cores); if it never shows, the
    // failure names the worker's versions and errors, since DevTools reports no delivery status.
    const shown = await eventually(notifications, (list) => list.length > 0, 30_000).catch((error) => {
      throw new Error(
        `${(error as Error).message}; worker versions ${JSON.stringify([...versions.values()])}, errors ${JSON.stringify(errors)}`,
      );
    });
    expect(shown).toEqual([
      { title: message.title, body: message.body, tag: 'incident-1', url: message.url },
    ]);

    // The click: the service worker's own notificationclick, for the notification it showed.
    const [worker] = page.context().serviceWorkers();
    if (!worker) throw new Error('no service worker');
    await worker.evaluate(async () => {
      // The service worker's global scope (e2e's types know windows, not workers).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      if (notification)
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    });
    await page.waitForURL(`${suite.server.url}/devices/bathroom-leak-id`);
    await cdp.detach();
  });

  it('opens offline from the kept shell with "Offline, reconnecting…", and keeps nothing of the API', async () => {
    await page.goto(`${suite.server.url}/activity`);
    await page.getByRole('button', { name: `Account menu for ${ada.user_name}` }).waitFor();
    const kept = await shellKept();
    expect(kept).toEqual(expect.arrayContaining(['/', '/manifest.webmanifest', '/icon-192.png']));
    expect(kept.filter((path) => /^\/(api|ws|healthz)/.test(path))).toEqual([]);

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Offline, reconnecting…' }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect((await shellKept()).filter((path) => /^\/(api|ws|healthz)/.test(path))).toEqual([]);
    await page.context().setOffline(false);
  });
});
