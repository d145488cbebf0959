import { beforeEach, describe, expect, it } from 'vitest';
import { accountsFakes } from '../../test/accounts-fakes.js';
import { HttpError } from '../http/errors.js';
import { MESSAGES } from './accounts.errors.js';
import { SignInService } from './sign-in.service.js';

/** The HttpError a call fails with, as status and body fields. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.statusCode, error: error.message, ...error.extra };
}

describe('SignInService', () => {
  let fakes: ReturnType<typeof accountsFakes>;
  let service: SignInService;
  const password = 'correct horse battery staple';
  beforeEach(() => {
    fakes = accountsFakes();
    service = new SignInService(fakes);
  });
  const ada = (fields = {}) =>
    fakes.users.add({ email: 'ada@example.com', passwordHash: `hash:${password}`, ...fields });

  it('signs in with the right password, whatever the e-mail’s case, and starts the failure count afresh', async () => {
    const user = ada();
    await fakes.lockout.recordFailure(user.email);
    expect(await service.loginStart({ email: 'ADA@example.com', password })).toEqual({
      '2fa_required': false,
      access_token: 'access-1',
      refresh_token: 'refresh-1',
    });
    expect(fakes.lockout.failures.size).toBe(0);
  });

  it('answers a wrong password and an unknown address alike, after a full verification each', async () => {
    ada();
    const wrong = await refusal(service.loginStart({ email: 'ada@example.com', password: 'nope' }));
    const unknown = await refusal(service.loginStart({ email: 'nobody@example.com', password: 'nope' }));
    expect(wrong).toEqual({ status: 401, error: MESSAGES.invalidCredentials });
    expect(unknown).toEqual(wrong);
    expect(fakes.hasher.verified).toEqual(['nope', 'nope']);
    expect(fakes.lockout.failures.get('nobody@example.com')).toBe(1);
  });

  it('locks after five failures, before verifying any more passwords', async () => {
    ada();
    for (let i = 0; i < 4; i++)
      await refusal(service.loginStart({ email: 'ada@example.com', password: 'nope' }));
    expect((await refusal(service.loginStart({ email: 'ada@example.com', password: 'nope' }))).status).toBe(
      423,
    );
    const locked = await refusal(service.loginStart({ email: 'ada@example.com', password }));
    expect(locked).toMatchObject({ status: 423, reason: 'login_lockout' });
    expect(fakes.hasher.verified).toHaveLength(5);
  });

  it('fails closed when the lockout state cannot be read', async () => {
    ada();
    fakes.lockout.broken = true;
    expect(await refusal(service.loginStart({ email: 'ada@example.com', password }))).toEqual({
      status: 503,
      error: MESSAGES.signInUnavailable,
    });
    expect(fakes.sessions.issued).toEqual([]);
  });

  it('tells an administrator’s lock only to the right password', async () => {
    ada({ lockoutEnabled: true, lockoutReason: 'admin_lock' });
    expect((await refusal(service.loginStart({ email: 'ada@example.com', password: 'nope' }))).status).toBe(
      401,
    );
    expect(await refusal(service.loginStart({ email: 'ada@example.com', password }))).toMatchObject({
      status: 423,
      error: MESSAGES.adminLocked,
      reason: 'admin_lock',
    });
  });

  it('asks for the mailed code when 2FA is on, keeping a code still cooling down', async () => {
    const user = ada({ twoFactorEnabled: true });
    const challenge = { '2fa_required': true, user_id: user.id, '2fa_type': 'email' };
    expect(await service.loginStart({ email: user.email, password })).toEqual(challenge);
    expect(fakes.codeMail.sent).toEqual([{ to: user.email, purpose: 'login_2fa' }]);
    fakes.codes.pendingFor.add(`${user.id}:login_2fa`);
    fakes.codeMail.failWith = new HttpError(429, 'Please wait 20s', { retry_after: 20 });
    expect(await service.loginStart({ email: user.email, password })).toEqual(challenge);
    expect(fakes.sessions.issued).toEqual([]);
  });

  it('finishes a pending sign-in with the right code only', async () => {
    const user = ada({ twoFactorEnabled: true });
    expect(await refusal(service.loginFinish({ user_id: user.id, code: '123456' }))).toEqual({
      status: 400,
      error: MESSAGES.noPending2fa,
    });
    fakes.codes.pendingFor.add(`${user.id}:login_2fa`);
    fakes.codes.next = 'invalid';
    expect(await refusal(service.loginFinish({ user_id: user.id, code: '000000' }))).toEqual({
      status: 400,
      error: MESSAGES.invalidCode,
    });
    expect(fakes.lockout.failures.get(user.email)).toBe(1);
    fakes.codes.next = 'burned';
    expect((await refusal(service.loginFinish({ user_id: user.id, code: '000000' }))).error).toBe(
      MESSAGES.codeBurned,
    );
    fakes.codes.next = 'ok';
    expect(await service.loginFinish({ user_id: user.id, code: '123456' })).toEqual({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
    });
    expect(fakes.lockout.failures.size).toBe(0);
  });

  it('refreshes through the session store and logs out by revoking the token’s family', async () => {
    expect(await service.refresh({ refresh_token: 'refresh-9' })).toEqual({
      access_token: 'access-r',
      refresh_token: 'refresh-r',
    });
    expect((await refusal(service.refresh({ refresh_token: '' }))).status).toBe(401);
    expect(await service.logout({ refresh_token: 'refresh-9' })).toEqual({ message: 'Logged out' });
    expect(fakes.sessions.revokedTokens).toEqual(['refresh-9']);
  });
});
