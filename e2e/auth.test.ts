import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS } from '../server/test/mail-catcher.js';
import { AccountsApi, AuthModal, newPerson, type Person, Shell } from './support/auth.page.js';
import { useE2e } from './support/suite.js';

const AUTH_SECRET = 'e2e-secret-that-is-at-least-32-characters-long';

describe('signing in and out in Chromium', () => {
  const suite = useE2e({ mail: true, env: { AUTH_SECRET } });
  const { mail } = suite;
  let accounts: AccountsApi;
  let admin: Person;

  beforeAll(async () => {
    accounts = new AccountsApi(suite.server.url, mail);
  });

  const freshPage = (width = 1280): Promise<Page> => suite.page({ viewport: { width, height: 900 } });

  /** A person with 2FA by mail, on a fresh page with the auth modal open. */
  async function withTwoFactor(name: string) {
    const person = newPerson(name);
    await accounts.signUp(person);
    await accounts.enableTwoFactor(person);
    const page = await freshPage();
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    await modal.open();
    return { person, page, modal };
  }

  async function signedInPage(person: Person, width = 1280) {
    const page = await freshPage(width);
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    await modal.open();
    await modal.logIn(person.email, person.password);
    await new Shell(page).waitForToast('Logged in successfully');
    return page;
  }

  it('signs up the first user, who becomes admin, then logs in', async () => {
    admin = newPerson('Ada');
    const page = await freshPage();
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    const shell = new Shell(page);
    await modal.open();
    await modal.signUp(admin);
    await shell.waitForToast('Account created successfully!');
    // Back on Log In, the e-mail already filled in.
    expect(await modal.field('Email').inputValue()).toBe(admin.email);
    await modal.field('Password').fill(admin.password);
    await modal.button('Log In').click();
    await shell.waitForToast('Logged in successfully');
    await modal.dialog.waitFor({ state: 'detached' });
    expect(await shell.heading().textContent()).toBe('Welcome back, Ada!👋');
    // An admin sees the management entries.
    expect(await shell.sidebarLinks().allTextContents()).toEqual([
      'Home',
      'Devices',
      'Map',
      'Users',
      'Guest passes',
      'Automations',
      'Activity',
      'Notifications',
      'Spotify',
    ]);
    const me = await accounts.call<{ role: string }>(
      'GET',
      '/api/auth/me',
      undefined,
      (await accounts.logIn(admin)).access_token,
    );
    expect(me.data.role).toBe('admin');
  });

  it('loads the sign-in forms when a visitor reaches for them, and not for a signed-in person', async () => {
    const formsCode = /\/assets\/AuthModal-[^/]*\.js$/;
    const page = await freshPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(suite.server.url);
    await new Shell(page).heading().waitFor();
    await page.waitForTimeout(300);
    expect(scripts.filter((url) => formsCode.test(url))).toEqual([]);
    // A pointer over "Log in" fetches them; the click opens the modal.
    const fetched = page.waitForRequest((request) => formsCode.test(request.url()));
    await page.getByRole('button', { name: 'Log in', exact: true }).hover();
    await fetched;
    const modal = new AuthModal(page);
    await modal.open();
    await modal.logIn(admin.email, admin.password);
    await new Shell(page).waitForToast('Logged in successfully');
    // Signed in, a fresh load of home never asks for them.
    scripts.length = 0;
    await page.reload();
    await page.getByRole('button', { name: /^Account menu for / }).waitFor();
    await page.waitForTimeout(300);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => formsCode.test(url))).toEqual([]);
  });

  it('shows "Invalid email or password" for a wrong password', async () => {
    const page = await freshPage();
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    await modal.open();
    await modal.logIn(admin.email, 'not-the-password');
    await modal.dialog.getByText('Invalid email or password').waitFor();
    expect(await modal.button('Log In').isEnabled()).toBe(true);
  });

  it('counts down a lockout each second after repeated failures', async () => {
    const page = await freshPage();
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    await modal.open();
    const email = newPerson('Locky').email;
    for (let attempt = 0; attempt < 5; attempt++) {
      await modal.logIn(email, 'wrong-password-1');
      await modal.button('Log In').waitFor();
      await page.waitForFunction(
        () => !document.querySelector('button[type=submit]')?.hasAttribute('disabled'),
      );
    }
    await modal.dialog.getByText('Account locked', { exact: true }).waitFor();
    const countdown = modal.dialog.getByText(/^You can try again in \d+s$/);
    await countdown.waitFor();
    const first = Number(/(\d+)s/.exec((await countdown.textContent()) ?? '')?.[1]);
    expect(first).toBeGreaterThan(800);
    expect(first).toBeLessThanOrEqual(901);
    await page.waitForTimeout(2100);
    const later = Number(/(\d+)s/.exec((await countdown.textContent()) ?? '')?.[1]);
    expect(first - later).toBeGreaterThanOrEqual(2);
    expect(first - later).toBeLessThanOrEqual(3);
  });

  it('logs in with the 2FA code from the mail, and holds "Request New Code" for 30 s', async () => {
    const { person, page, modal } = await withTwoFactor('Tess');
    const shell = new Shell(page);
    const mark = mail.mark();
    await modal.logIn(person.email, person.password);
    await modal.dialog.getByRole('heading', { name: 'Enter 2FA Code' }).waitFor();
    await modal.dialog.getByText('Check your email for the verification code').waitFor();
    const firstCode = await mail.code(person.email, SUBJECTS.signIn, { after: mark });

    // Right after the login mail, the server's 30 s between codes still runs.
    const loginCodeAt = Date.now();
    await modal.button('Request New Code').click();
    await modal.dialog.getByText(/^Please wait \d+s before requesting another code$/).waitFor();
    await page.waitForTimeout(Math.max(0, loginCodeAt + 31_000 - Date.now()));

    const resendMark = mail.mark();
    const resentAt = Date.now();
    await modal.button('Request New Code').click();
    await modal.dialog.getByText('New code sent to your email').waitFor();
    // A second request within 30 s is held by the page itself: no call goes out. The page counts the
    // 30 s from its request, so what is left is 30 s less the time since then (the answer waits for
    // the mail, which on a busy machine took seconds).
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await modal.button('Request New Code').click();
    const held = modal.dialog.getByText(/^Please wait \d+s before requesting another code$/);
    await held.waitFor();
    const left = Number(/(\d+)s/.exec((await held.textContent()) ?? '')?.[1]);
    expect(left).toBeLessThanOrEqual(30);
    expect(left).toBeGreaterThanOrEqual(30 - Math.ceil((Date.now() - resentAt) / 1000));
    expect(requests.filter((url) => url.includes('/2fa/email/request'))).toEqual([]);
    const newCode = await mail.code(person.email, SUBJECTS.signIn, { after: resendMark });

    // The newer code is the one that counts.
    expect(newCode).toMatch(/^\d{6}$/);
    expect(firstCode).toMatch(/^\d{6}$/);
    await modal.field('2FA Code').fill(newCode);
    await modal.button('Verify').click();
    await shell.waitForToast('Logged in successfully');
    expect(await shell.heading().textContent()).toBe('Welcome back, Tess!👋');
  }, 90_000);

  it('cancels a pending 2FA login', async () => {
    const { person, page, modal } = await withTwoFactor('Cara');
    await modal.logIn(person.email, person.password);
    await modal.button('Cancel Login').click();
    await new Shell(page).waitForToast('Login cancelled');
    await modal.dialog.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });

  it('resets a forgotten password with the mailed code', async () => {
    const person = newPerson('Fern');
    await accounts.signUp(person);
    const page = await freshPage();
    await page.goto(suite.server.url);
    const modal = new AuthModal(page);
    const shell = new Shell(page);
    await modal.open();
    await modal.dialog.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = page.getByRole('dialog', { name: 'Forgot Password' });
    await forgot.getByRole('button', { name: 'Send Code' }).click();
    await forgot.getByText('Email is required').waitFor();
    await forgot.getByLabel('Email').fill(person.email);
    const mark = mail.mark();
    await forgot.getByRole('button', { name: 'Send Code' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset Password' });
    await reset.waitFor();
    const code = await mail.code(person.email, SUBJECTS.passwordReset, { after: mark });
    await reset.getByLabel('Verification Code').fill(code);
    await reset.getByLabel('New Password').fill('A-new-password-42');
    await reset.getByLabel('Confirm Password').fill('A-new-password-43');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText('Passwords do not match').waitFor();
    await reset.getByLabel('Confirm Password').fill('A-new-password-42');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await shell.waitForToast('Password reset successful! Please log in with your new password.');
    await reset.waitFor({ state: 'detached' });
    await modal.logIn(person.email, 'A-new-password-42');
    await shell.waitForToast('Logged in successfully');
  });

  it('keeps the session across a reload, and logs out', async () => {
    const page = await signedInPage(admin);
    const shell = new Shell(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back, Ada!👋' }).waitFor();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'auth_token');
    // Set by the server (issue 11 item 13): HttpOnly, so no script on the page can read it.
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict', httpOnly: true });
    expect(await page.evaluate(() => document.cookie)).not.toContain('auth_token');
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 800);

    await shell.logout();
    await shell.waitForToast('Logged out successfully');
    expect(await shell.heading().textContent()).toBe('Welcome back!');
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();
    expect((await page.context().cookies()).find((c) => c.name === 'auth_token')).toBeUndefined();
    await page.reload();
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    expect(await shell.heading().textContent()).toBe('Welcome back!');
  });

  // Issue 11 item 8 (login CSRF): a link carrying someone else's tokens must not sign this browser
  // into their account; the tokens are dropped unspent and the address is cleaned all the same.
  it('ignores provider tokens in an address this browser did not ask for', async () => {
    const mallory = newPerson('Mallory');
    await accounts.signUp(mallory);
    const login = await accounts.call<{ access_token: string; refresh_token: string }>(
      'POST',
      '/api/auth/login/start',
      { email: mallory.email, password: mallory.password },
    );
    expect(login.status).toBe(200);
    const page = await freshPage();
    const query = new URLSearchParams({
      access_token: login.data.access_token,
      refresh_token: login.data.refresh_token,
    });
    await page.goto(`${suite.server.url}/?${query}&keep=1`);
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?keep=1');
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();
    // Not spent: the refresh token still works for its owner.
    expect(
      (await accounts.call('POST', '/api/auth/refresh', { refresh_token: login.data.refresh_token })).status,
    ).toBe(200);
  });

  it('answers an expired access token with exactly one silent refresh', async () => {
    const page = await signedInPage(admin);
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/refresh')) refreshes.push(request.url());
    });
    // A genuinely expired token, signed with the server's secret, presented on the first /me.
    const me = await accounts.call<{ id: string }>(
      'GET',
      '/api/auth/me',
      undefined,
      (await accounts.logIn(admin)).access_token,
    );
    const expired = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(me.data.id)
      .setIssuer('hearth')
      .setAudience('hearth')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(new TextEncoder().encode(AUTH_SECRET));
    let presented = false;
    const meStatuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/me')) meStatuses.push(response.status());
    });
    await page.route('**/api/auth/me', async (route) => {
      if (presented) return route.continue();
      presented = true;
      await route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${expired}` } });
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back, Ada!👋' }).waitFor();
    // One refresh on load (docs/screens.md#token-refresh), then exactly one for the 401.
    expect(meStatuses).toEqual([401, 200]);
    expect(refreshes).toHaveLength(2);
  });

  it('shows the sidebar permanently at 1600 px and as an overlay at 800 px', async () => {
    const wide = await signedInPage(admin, 1600);
    const nav = wide.getByRole('navigation', { name: 'Main menu' });
    expect(await nav.isVisible()).toBe(true);
    expect(await wide.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    await nav.getByRole('link', { name: 'Map' }).click();
    await wide.waitForURL(`${suite.server.url}/map`);
    // The address changes before React has rendered the new route's links.
    await nav.locator('a[aria-current="page"]', { hasText: 'Map' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Map' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    expect(await nav.isVisible()).toBe(true);

    const narrow = await signedInPage(admin, 800);
    const menu = narrow.getByRole('navigation', { name: 'Main menu' });
    const button = narrow.getByRole('button', { name: 'Open menu' });
    expect(await menu.isVisible()).toBe(false);
    expect(await button.textContent()).toBe('☰');
    await button.click();
    await menu.waitFor({ state: 'visible' });
    await narrow.mouse.click(780, 450);
    await menu.waitFor({ state: 'hidden' });
    await button.click();
    await menu.getByRole('link', { name: 'Spotify' }).click();
    await narrow.waitForURL(`${suite.server.url}/spotify`);
    await menu.waitFor({ state: 'hidden' });
    expect(await narrow.getByText('Spotify integration placeholder').isVisible()).toBe(true);
  });

  it('opens Account Settings from the profile popover, by keyboard too', async () => {
    const page = await signedInPage(admin);
    const avatar = page.getByRole('button', { name: /^Account menu for/ });
    await avatar.click();
    const menu = page.getByRole('menu', { name: 'Account' });
    expect(await menu.getByText(admin.userName).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('avatar-button'))).toBe(true);
    await page.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'Settings' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Settings');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').first().waitFor();
    expect(await page.getByRole('dialog').first().textContent()).toContain(admin.email);
  });

  it('hides Devices and Users from a plain user', async () => {
    const person = newPerson('Uma');
    await accounts.signUp(person);
    const page = await signedInPage(person, 1600);
    // Activity shows a plain user their own entries (docs/activity.md#who-sees-what).
    expect(await new Shell(page).sidebarLinks().allTextContents()).toEqual([
      'Home',
      'Map',
      'Activity',
      'Notifications',
      'Spotify',
    ]);
  });
});
