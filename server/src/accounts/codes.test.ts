import { describe, expect, it } from 'vitest';
import type { Person } from '../../test/accounts-client.js';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

describe.each(testDatabases())(
  'codes, e-mail verification, 2FA and password reset on $name',
  ({ create }) => {
    const t = useTestApp({
      database: create,
      mail: true,
      env: { AUTH_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' },
    });
    const { api, mail } = t;

    /** Signs up (taking the sign-up mail) and signs in. */
    async function signedIn() {
      const who = await api.signup();
      await mail.next(who.email, /verify/i);
      await ageCodes(who.id);
      return { who, ...(await api.login(who)) };
    }

    /** Lets the 30 s resend cooldown pass by ageing the user's codes. */
    async function ageCodes(userId: string, ms = 31_000) {
      const rows = await t.hearth.storage.db
        .selectFrom('one_time_codes')
        .select(['id', 'created_at'])
        .where('user_id', '=', userId)
        .execute();
      for (const row of rows) {
        await t.hearth.storage.db
          .updateTable('one_time_codes')
          .set({ created_at: new Date(Date.parse(row.created_at) - ms).toISOString() })
          .where('id', '=', row.id)
          .execute();
      }
    }

    async function enableTwoFactor(who: Person & { id: string }, token: string) {
      expect((await api.post('/2fa/email/setup', { user_id: who.id }, token)).statusCode).toBe(200);
      const { code } = await mail.next(who.email, /two-factor/i);
      const res = await api.post('/2fa/email/verify', { user_id: who.id, code }, token);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.two_factor_enabled).toBe(true);
    }

    it('verifies the e-mail address with the mailed code', async () => {
      const { who, access_token } = await signedIn();
      const request = await api.post('/email/verify/request', { user_id: who.id }, access_token);
      expect(request.statusCode).toBe(200);
      const { code } = await mail.next(who.email, /verify/i);
      const confirm = await api.post('/email/verify/confirm', { user_id: who.id, code }, access_token);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.json().user.email_confirmed).toBe(true);
      expect((await api.me(access_token)).json().email_confirmed).toBe(true);
      // Single use: the same code again is refused.
      const again = await api.post('/email/verify/confirm', { user_id: who.id, code }, access_token);
      expect(again.statusCode).toBe(400);
    });

    it('acts only on the caller: no session 401, another user_id 403', async () => {
      const { who } = await signedIn();
      const other = await signedIn();
      expect((await api.post('/email/verify/request', { user_id: who.id })).statusCode).toBe(401);
      const res = await api.post('/email/verify/request', { user_id: who.id }, other.access_token);
      expect(res.statusCode).toBe(403);
      expect((await api.post('/2fa/email/setup', { user_id: who.id }, other.access_token)).statusCode).toBe(
        403,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mail.count(who.email)).toBe(0);
    });

    it('enforces the 30 s resend cooldown with 429 "Please wait Ns…"', async () => {
      const { who, access_token } = await signedIn();
      await api.post('/email/verify/request', {}, access_token);
      const again = await api.post('/email/verify/request', {}, access_token);
      expect(again.statusCode).toBe(429);
      expect(again.json().error).toMatch(/^Please wait \d+s before requesting another code$/);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      await mail.next(who.email, /verify/i);
    });

    it('sends at most 5 mails of a kind per hour', async () => {
      const { who, access_token } = await signedIn();
      // The sign-up mail was the first of the hour.
      for (let i = 0; i < 4; i++) {
        await ageCodes(who.id);
        expect((await api.post('/email/verify/request', {}, access_token)).statusCode).toBe(200);
        await mail.next(who.email, /verify/i);
      }
      await ageCodes(who.id);
      const sixth = await api.post('/email/verify/request', {}, access_token);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().error).toMatch(/too many codes/i);
    });

    it('burns a code after 5 wrong tries, so even the right code then fails', async () => {
      const { who, access_token } = await signedIn();
      await api.post('/email/verify/request', {}, access_token);
      const { code } = await mail.next(who.email, /verify/i);
      const wrong = code === '000000' ? '111111' : '000000';
      const errors: string[] = [];
      for (let i = 0; i < 5; i++) {
        errors.push((await api.post('/email/verify/confirm', { code: wrong }, access_token)).json().error);
      }
      expect(errors.slice(0, 4)).toEqual(Array(4).fill('Invalid or expired code'));
      expect(errors[4]).toMatch(/request a new code/);
      const right = await api.post('/email/verify/confirm', { code }, access_token);
      expect(right.statusCode).toBe(400);
      expect((await api.me(access_token)).json().email_confirmed).toBe(false);
    });

    it('invalidates the previous code when a new one is sent', async () => {
      const { who, access_token } = await signedIn();
      await api.post('/email/verify/request', {}, access_token);
      const first = (await mail.next(who.email, /verify/i)).code;
      await ageCodes(who.id);
      await api.post('/email/verify/request', {}, access_token);
      const second = (await mail.next(who.email, /verify/i)).code;
      if (first !== second) {
        expect((await api.post('/email/verify/confirm', { code: first }, access_token)).statusCode).toBe(400);
      }
      expect((await api.post('/email/verify/confirm', { code: second }, access_token)).statusCode).toBe(200);
    });

    it('signs in with a mailed second factor through /login/finish', async () => {
      const { who, access_token } = await signedIn();
      await enableTwoFactor(who, access_token);
      const start = await api.post('/login/start', { email: who.email, password: who.password });
      expect(start.json()).toEqual({ '2fa_required': true, user_id: who.id, '2fa_type': 'email' });
      const { code, raw } = await mail.next(who.email, /sign-in code/i);
      expect(raw).toContain('Hearth');
      const finish = await api.post('/login/finish', { user_id: who.id, code });
      expect(finish.statusCode).toBe(200);
      expect((await api.me(finish.json().access_token)).json().id).toBe(who.id);
      // The challenge is spent.
      const again = await api.post('/login/finish', { user_id: who.id, code });
      expect(again.json().error).toBe('No pending 2FA request');
    });

    it('completes a pending sign-in through /2fa/email/verify, after a resend', async () => {
      const { who, access_token } = await signedIn();
      await enableTwoFactor(who, access_token);
      await api.post('/login/start', { email: who.email, password: who.password });
      const first = (await mail.next(who.email, /sign-in code/i)).code;
      const early = await api.post('/2fa/email/request', { user_id: who.id });
      expect(early.statusCode).toBe(429);
      expect(early.json().error).toMatch(/^Please wait \d+s before requesting another code$/);
      await ageCodes(who.id);
      const resend = await api.post('/2fa/email/request', { user_id: who.id });
      expect(resend.statusCode).toBe(200);
      expect(resend.json().message).toBe('New code sent to your email');
      const second = (await mail.next(who.email, /sign-in code/i)).code;
      if (first !== second) {
        expect((await api.post('/2fa/email/verify', { user_id: who.id, code: first })).statusCode).toBe(400);
      }
      const verify = await api.post('/2fa/email/verify', { user_id: who.id, code: second });
      expect(verify.statusCode).toBe(200);
      expect(verify.json().access_token).toMatch(/^ey/);
    });

    it('keeps the code already sent when sign-in starts again within the cooldown', async () => {
      const { who, access_token } = await signedIn();
      await enableTwoFactor(who, access_token);
      const again = await api.post('/2fa/email/setup', {}, access_token);
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toBe('Two-factor authentication is already enabled');
      await api.post('/login/start', { email: who.email, password: who.password });
      const second = await api.post('/login/start', { email: who.email, password: who.password });
      expect(second.json()['2fa_required']).toBe(true);
      const { code } = await mail.next(who.email, /sign-in code/i);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mail.count(who.email)).toBe(0);
      expect((await api.post('/login/finish', { user_id: who.id, code })).statusCode).toBe(200);
    });

    it('refuses to verify an address twice', async () => {
      const { who, access_token } = await signedIn();
      await api.post('/email/verify/request', {}, access_token);
      const { code } = await mail.next(who.email, /verify/i);
      await api.post('/email/verify/confirm', { code }, access_token);
      const again = await api.post('/email/verify/request', {}, access_token);
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toBe('Email is already verified');
    });

    it('answers "No pending 2FA request" without a pending sign-in', async () => {
      const { who } = await signedIn();
      for (const path of ['/2fa/email/request', '/login/finish', '/2fa/email/verify']) {
        const res = await api.post(path, { user_id: who.id, code: '123456' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('No pending 2FA request');
      }
      expect((await api.post('/login/finish', { user_id: 'nobody', code: '1' })).json().error).toBe(
        'No pending 2FA request',
      );
    });

    it('counts wrong second-factor codes towards the lockout', async () => {
      const { who, access_token } = await signedIn();
      await enableTwoFactor(who, access_token);
      await api.post('/login/start', { email: who.email, password: who.password });
      const { code } = await mail.next(who.email, /sign-in code/i);
      const wrong = code === '000000' ? '111111' : '000000';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await api.post('/login/finish', { user_id: who.id, code: wrong })).statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 423]);
      const locked = await api.post('/login/start', { email: who.email, password: who.password });
      expect(locked.statusCode).toBe(423);
      expect(locked.json().reason).toBe('login_lockout');
    });

    it('turns 2FA off with the password', async () => {
      const { who, access_token } = await signedIn();
      await enableTwoFactor(who, access_token);
      const wrong = await api.post('/2fa/disable', { password: 'not my password' }, access_token);
      expect(wrong.statusCode).toBe(400);
      const res = await api.post('/2fa/disable', { password: who.password }, access_token);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.two_factor_enabled).toBe(false);
      expect(
        (await api.post('/login/start', { email: who.email, password: who.password })).json()['2fa_required'],
      ).toBe(false);
    });

    it('answers a reset request the same whether or not the address exists', async () => {
      const { who } = await signedIn();
      const known = await api.post('/password/reset/request', { email: who.email.toUpperCase() });
      const unknown = await api.post('/password/reset/request', { email: `ghost-${Date.now()}@example.com` });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      expect((await mail.next(who.email, /reset/i)).code).toMatch(/^\d{6}$/);
      expect((await api.post('/password/reset/request', {})).json().error).toBe('Email is required');
    });

    it('resets the password with the mailed code, ending every session', async () => {
      const { who, refresh_token } = await signedIn();
      await api.post('/password/reset/request', { email: who.email });
      const { code } = await mail.next(who.email, /reset/i);
      const weak = await api.post('/password/reset/confirm', {
        email: who.email,
        code,
        new_password: 'password1',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().error).toMatch(/password/);
      const missing = await api.post('/password/reset/confirm', { email: who.email, code });
      expect(missing.json().error).toBe('All fields are required');
      const ghost = await api.post('/password/reset/confirm', {
        email: `ghost-${Date.now()}@example.com`,
        code,
        new_password: 'a fresh passphrase',
      });
      expect(ghost.statusCode).toBe(400);
      expect(ghost.json().error).toBe('Invalid or expired code');

      const res = await api.post('/password/reset/confirm', {
        email: who.email,
        code,
        new_password: 'a fresh passphrase',
      });
      expect(res.statusCode).toBe(200);
      expect((await api.post('/refresh', { refresh_token })).statusCode).toBe(401);
      await api.login({ email: who.email, password: 'a fresh passphrase' });
      const reused = await api.post('/password/reset/confirm', {
        email: who.email,
        code,
        new_password: 'x another one',
      });
      expect(reused.statusCode).toBe(400);
    });
  },
);
