import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountsFakes } from '../../test/accounts-fakes.js';
import { HttpError } from '../http/errors.js';
import { MESSAGES } from './accounts.errors.js';
import { AccountsService, SIGNUP_REPLAY_MS } from './accounts.service.js';
import { SignInService } from './sign-in.service.js';

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.statusCode, error: error.message };
}

describe('AccountsService', () => {
  let fakes: ReturnType<typeof accountsFakes>;
  let service: AccountsService;
  const password = 'correct horse battery staple';
  const signup = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    user_name: 'ada',
    email: 'ada@example.com',
    password,
  };
  beforeEach(() => {
    fakes = accountsFakes();
    service = new AccountsService({ ...fakes, signIn: new SignInService(fakes) });
  });

  it('signs up the first account as admin and mails it a verification code in the background', async () => {
    const user = await service.signup(signup);
    expect(user).toMatchObject({ email: 'ada@example.com', role: 'admin', email_confirmed: false });
    expect(fakes.codeMail.sent).toEqual([{ to: 'ada@example.com', purpose: 'email_verify' }]);
    expect((await service.signup({ ...signup, user_name: 'grace', email: 'grace@example.com' })).role).toBe(
      'user',
    );
  });

  it('refuses weak passwords, then taken addresses and names', async () => {
    expect(await refusal(service.signup({ ...signup, password: 'short' }))).toEqual({
      status: 400,
      error: 'Password must be at least 8 characters',
    });
    expect((await refusal(service.signup({ ...signup, password: 'password1' }))).error).toMatch(/too common/);
    const first = await service.signup(signup);
    // Issue 11 item 7: a taken address answers like a new sign-up, and its owner is mailed.
    const again = await service.signup({ ...signup, user_name: 'other', email: 'ADA@example.com' });
    expect(again).toMatchObject({ email: 'ada@example.com', user_name: 'other', email_confirmed: false });
    expect(again.id).not.toBe(first.id);
    expect(fakes.codeMail.notices).toEqual([
      { to: 'ada@example.com', subject: 'Someone tried to sign up to Hearth with your address' },
    ]);
    expect(
      await refusal(service.signup({ ...signup, email: 'other@example.com', user_name: 'ADA' })),
    ).toEqual({
      status: 409,
      error: MESSAGES.userNameTaken,
    });
  });

  it('answers a sign-up sent again (a proxy retrying a POST) as the first, for a minute', async () => {
    const first = await service.signup(signup);
    fakes.hasher.verified = [];
    // The proxy's retry: same address, name and password. The verification code goes out again
    // in case the first attempt's instance died before sending it (codes throttle a second one).
    expect(await service.signup({ ...signup, email: 'ADA@example.com' })).toEqual(first);
    expect(fakes.codeMail.sent).toHaveLength(2);
    expect(fakes.codeMail.notices).toEqual([]);
    // Anything else with the taken name is a 409, after one verification like the replay's.
    for (const other of [
      { ...signup, password: 'another horse battery staple' },
      { ...signup, email: 'grace@example.com' },
    ])
      expect(await refusal(service.signup(other))).toEqual({ status: 409, error: MESSAGES.userNameTaken });
    expect(fakes.hasher.verified).toHaveLength(3);
    vi.useFakeTimers({ now: Date.now() + SIGNUP_REPLAY_MS + 1000, toFake: ['Date'] });
    try {
      expect(await refusal(service.signup(signup))).toEqual({ status: 409, error: MESSAGES.userNameTaken });
    } finally {
      vi.useRealTimers();
    }
    expect(fakes.codeMail.sent).toHaveLength(2);
  });

  it('acts only on the caller’s own account', async () => {
    const ada = fakes.users.add({ email: 'ada@example.com' });
    expect(await refusal(service.requestEmailVerification(ada, { user_id: 'someone-else' }))).toEqual({
      status: 403,
      error: MESSAGES.forbidden,
    });
    expect(await service.requestEmailVerification(ada, { user_id: ada.id })).toEqual({
      message: 'Check your email for the code.',
    });
  });

  it('confirms the e-mail with the right code, counting a wrong one towards the lockout', async () => {
    const ada = fakes.users.add({ email: 'ada@example.com' });
    fakes.codes.next = 'invalid';
    expect(await refusal(service.confirmEmail(ada, { user_id: '', code: '000000' }))).toEqual({
      status: 400,
      error: MESSAGES.invalidCode,
    });
    expect(fakes.lockout.failures.get(ada.email)).toBe(1);
    fakes.codes.next = 'ok';
    const confirmed = await service.confirmEmail(ada, { user_id: '', code: '123456' });
    expect(confirmed).toMatchObject({ message: 'Email verified', user: { email_confirmed: true } });
  });

  it('completes a pending sign-in on /2fa/email/verify when no set-up is waiting', async () => {
    const ada = fakes.users.add({ email: 'ada@example.com', twoFactorEnabled: true });
    fakes.codes.pendingFor.add(`${ada.id}:login_2fa`);
    expect(await service.verifyTwoFactor(undefined, { user_id: ada.id, code: '123456' })).toEqual({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
    });
    fakes.codes.pendingFor.add(`${ada.id}:2fa_setup`);
    expect(await service.verifyTwoFactor(ada, { user_id: '', code: '123456' })).toMatchObject({
      message: '2FA enabled',
    });
  });

  it('changes the password: the current one first, then a different and acceptable one; other sessions end', async () => {
    const ada = fakes.users.add({ email: 'ada@example.com', passwordHash: `hash:${password}` });
    const change = (current: string, next: string) =>
      service.changePassword(ada, { current_password: current, new_password: next });
    expect(await refusal(change('wrong', 'a new long passphrase'))).toEqual({
      status: 400,
      error: MESSAGES.wrongPassword,
    });
    expect(await refusal(change(password, password))).toEqual({ status: 400, error: MESSAGES.samePassword });
    expect((await refusal(change(password, 'short'))).error).toMatch(/password/i);
    expect(await change(password, 'a new long passphrase')).toEqual({
      message: 'Password updated',
      access_token: 'access-1',
      refresh_token: 'refresh-1',
    });
    expect(fakes.sessions.revokedUsers).toEqual([ada.id]);
    expect((await fakes.users.findById(ada.id))?.passwordHash).toBe('hash:a new long passphrase');
  });

  it('answers a reset request the same whether or not the address has an account', async () => {
    fakes.users.add({ email: 'ada@example.com' });
    const known = await service.requestPasswordReset({ email: 'ada@example.com' });
    const unknown = await service.requestPasswordReset({ email: 'nobody@example.com' });
    expect(unknown).toEqual(known);
  });

  it('resets the password with a valid code, ending every session and every other code', async () => {
    const ada = fakes.users.add({ email: 'ada@example.com' });
    expect(
      await refusal(
        service.confirmPasswordReset({
          email: 'nobody@example.com',
          code: '1',
          new_password: 'long enough pass',
        }),
      ),
    ).toEqual({ status: 400, error: MESSAGES.invalidCode });
    // Issue 11 item 6: reset-code failures never count towards the sign-in lockout.
    expect(fakes.lockout.failures.get('nobody@example.com')).toBeUndefined();
    expect(
      await service.confirmPasswordReset({
        email: 'ada@example.com',
        code: '123456',
        new_password: 'long enough pass',
      }),
    ).toEqual({ message: 'Password reset successful' });
    expect(await fakes.users.findById(ada.id)).toMatchObject({
      passwordHash: 'hash:long enough pass',
      emailConfirmed: true,
    });
    expect(fakes.sessions.revokedUsers).toEqual([ada.id]);
    expect(fakes.codes.cancelled).toEqual([ada.id]);
  });
});
