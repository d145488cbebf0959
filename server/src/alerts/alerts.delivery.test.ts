import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { MailCatcher } from '../../test/mail-catcher.js';
import { eventually, waitFor } from '../../test/wait.js';
import { about, alertDevices, testBuses, useAlertsHousehold, WebhookCatcher } from './alerts-test-kit.js';

const MINUTE = 60_000;

/**
 * docs/alerts.md#delivery: quiet hours hold what is not critical until they end, critical ones go
 * through; a webhook that hangs or fails is retried a bounded number of times and never holds up
 * e-mail; a flapping device makes one incident and few deliveries.
 */
describe.each(testDatabases())('delivery on $name', ({ create }) => {
  describe.each(testBuses())('over the $name', ({ url }) => {
    const hooks = new WebhookCatcher();
    const mail = new MailCatcher();
    beforeAll(async () => {
      await hooks.start();
      await mail.start();
    });
    afterAll(async () => {
      await hooks.stop();
      await mail.stop();
    });
    const h = useAlertsHousehold({
      database: create,
      bus: url,
      devices: alertDevices({
        leaks: ['Boiler leak', 'Sink leak'],
        plugs: ['Fridge plug', 'Router plug', 'Flappy plug'],
      }),
      env: () => ({ SMTP_URL: mail.url }),
    });

    const goOffline = async (name: string) => {
      await h.availability(name, true);
      await h.settle(name, (device) => device.online);
      await h.availability(name, false);
      await h.settle(name, (device) => !device.online);
    };

    it('quiet hours hold an offline warning until they end; a leak goes through them at once', async () => {
      hooks.answer = 200;
      const { token } = await h.person('resident');
      const start = new Date(h.clock.now() - MINUTE).toISOString().slice(11, 16);
      const end = new Date(h.clock.now() + 30 * MINUTE).toISOString().slice(11, 16);
      const put = await h.call(token, 'PUT', '/api/notifications/preferences', {
        push: true,
        email: false,
        webhook_url: `${hooks.url}/quiet`,
        quiet_hours: { start, end },
      });
      expect(put.status).toBe(200);
      await goOffline('Fridge plug');
      await h.advance(10 * MINUTE);
      expect(about(await h.inbox(token), await h.idOf('Fridge plug'), 'offline')).toHaveLength(1);
      await h.report('Boiler leak', { water_leak: true });
      await h.settle('Boiler leak', (device) => device.state.water_leak === true);
      await waitFor(() => hooks.to('/quiet').length === 1);
      expect(hooks.to('/quiet')[0]).toMatchObject({
        body: expect.stringMatching(/^Since \d\d:\d\d\.$/),
        headers: { title: 'Boiler leak: Leak detected', priority: '5' },
      });

      const titles = () => hooks.to('/quiet').map((hook) => hook.headers.title);
      // The leak repeats after 15 minutes, quiet hours or not; the fridge waits for their end.
      await h.advance(19 * MINUTE);
      expect(titles()).toEqual(['Boiler leak: Leak detected', 'Boiler leak: Leak detected']);
      await h.advance(2 * MINUTE);
      await waitFor(() => titles().includes('Fridge plug: Offline'));
      expect(hooks.to('/quiet').at(-1)?.headers).toMatchObject({
        title: 'Fridge plug: Offline',
        priority: '4',
      });
    });

    it('a webhook that hangs or answers 500 is tried a bounded number of times and holds up no e-mail', async () => {
      const hanging = await h.person('resident');
      const failing = await h.person('resident');
      for (const [who, path] of [
        [hanging, '/hang'],
        [failing, '/fail'],
      ] as const) {
        await h.call(who.token, 'PUT', '/api/notifications/preferences', {
          push: false,
          email: true,
          webhook_url: `${hooks.url}${path}`,
          quiet_hours: null,
        });
      }
      hooks.answer = 'hang';
      const leakAt = Date.now();
      // No settle(): it waits for every send, the hanging one included; Hearth's own beat sends.
      await h.report('Sink leak', { water_leak: true });
      // The mail does not wait for the webhook's 5 s time-outs.
      const letter = await mail.next(hanging.user.email, undefined, { timeoutMs: 4000 });
      expect(letter.subject).toBe('Sink leak: Leak detected');
      expect(Date.now() - leakAt).toBeLessThan(4000);
      await mail.next(failing.user.email, undefined, { timeoutMs: 4000 });
      // Hanging: the first attempt is still waiting; then 500s: three attempts in all, then it gives up.
      hooks.answer = 500;
      await waitFor(() => hooks.to('/fail').length === 3, 25_000);
      await waitFor(() => hooks.to('/hang').length === 3, 25_000);
      await h.app.alerts.sweep();
      expect(hooks.to('/fail')).toHaveLength(3);
      hooks.answer = 200;
    }, 60_000);

    it('e-mails the others as a digest, at most one an hour, when the person asks for it', async () => {
      const { user, token } = await h.person('resident');
      await h.call(token, 'PUT', '/api/notifications/preferences', {
        push: false,
        email: false,
        email_digest: true,
        webhook_url: null,
        quiet_hours: null,
      });
      const before = mail.count(user.email);
      await goOffline('Router plug');
      await h.advance(10 * MINUTE);
      expect(about(await h.inbox(token), await h.idOf('Router plug'), 'offline')).toHaveLength(1);
      await h.advance(59 * MINUTE);
      expect(mail.count(user.email)).toBe(before);
      await h.advance(1 * MINUTE);
      const digest = await mail.next(user.email, /^Hearth: \d+ notifications?$/);
      expect(digest.raw).toContain('Router plug: Offline: Not reachable since');
      expect(digest.raw).not.toContain('Leak detected');
    });

    it('10 000 flapping availability messages make one incident and at most one delivery per window', async () => {
      hooks.answer = 200;
      const { token } = await h.person('resident');
      await h.call(token, 'PUT', '/api/notifications/preferences', {
        push: false,
        email: false,
        webhook_url: `${hooks.url}/flap`,
        quiet_hours: null,
      });
      const id = await h.idOf('Flappy plug');
      // Other tests' leaks repeat to everyone: only the plug's deliveries count here.
      const flappy = () =>
        hooks.to('/flap').filter((hook) => String(hook.headers.title).startsWith('Flappy plug'));
      await goOffline('Flappy plug');
      await h.advance(10 * MINUTE);
      // A failure shows what did arrive.
      const titles = async () => flappy().map((hook) => String(hook.headers.title));
      await eventually(titles, (seen) => seen.length === 1, 5_000);
      for (let i = 0; i < 10_000; i++) {
        await h.z2m.client.publishAsync(
          `${h.z2m.base}/Flappy plug/availability`,
          i % 2 === 0 ? 'online' : 'offline',
        );
      }
      // A state message after them says the hub has read them all; then it comes back for good.
      // Reading 10 000 flips (each an online change every listener hears, and a device upsert on
      // the stream) took over 5 s in a fresh-clone CI run on a busy machine: this wait allows 30.
      await h.report('Flappy plug', { state: 'ON' });
      await h.settle('Flappy plug', (device) => device.state.state === 'ON', 30_000);
      await h.availability('Flappy plug', true);
      await h.settle('Flappy plug', (device) => device.online);
      const seen = about(await h.inbox(token), id, 'offline');
      expect(seen).toHaveLength(1);
      expect(seen[0]?.title).toBe('Flappy plug: Back online');
      // Within the 10-minute window of the first delivery: nothing more yet; after it, the state as it is then.
      await h.advance(5 * MINUTE);
      expect(flappy()).toHaveLength(1);
      await h.advance(5 * MINUTE);
      await eventually(titles, (seen) => seen.length === 2, 5_000);
      expect(flappy()[1]?.headers.title).toBe('Flappy plug: Back online');
      await h.advance(30 * MINUTE);
      expect(flappy()).toHaveLength(2);
    }, 120_000);
  });
});
