import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { artifactsDir } from './browser.js';

/** Seeding through the public API (never the database), as a person signing up would. */
export interface Account {
  id: string;
  email: string;
  password: string;
  user_name: string;
  first_name: string;
  last_name: string;
  accessToken: string;
}

async function call<T>(base: string, method: string, route: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await response.json().catch(() => ({}))) as T;
  return { status: response.status, data };
}

export const apiCall = call;

/** Logs in through the API and returns the token pair (no 2FA on the account). */
export async function logIn(base: string, email: string, password: string) {
  const { status, data } = await call<{ access_token?: string; refresh_token?: string; error?: string }>(
    base,
    'POST',
    '/api/auth/login/start',
    { email, password },
  );
  if (status !== 200 || !data.access_token || !data.refresh_token) {
    throw new Error(`login of ${email} answered ${status}: ${JSON.stringify(data)}`);
  }
  return { accessToken: data.access_token, refreshToken: data.refresh_token };
}

/** The person most tests sign up first (the admin). */
export const ADA = { first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' } as const;

/** Signs up (the first account becomes admin, later ones `user`) and logs in. */
export async function signUp(
  base: string,
  person: { first_name: string; last_name: string; user_name: string },
): Promise<Account> {
  const email = `${person.user_name}@example.test`;
  const password = `Hearth-${person.user_name}-e2e-9731`;
  const signup = await call(base, 'POST', '/api/auth/signup', { ...person, email, password });
  if (signup.status >= 300)
    throw new Error(`signup of ${email} answered ${signup.status}: ${JSON.stringify(signup.data)}`);
  const { accessToken } = await logIn(base, email, password);
  const me = await call<{ id: string }>(base, 'GET', '/api/auth/me', undefined, accessToken);
  return { ...person, id: me.data.id, email, password, accessToken };
}

/** An admin gives `account` another role (PATCH /api/auth/users/:id); throws unless it is taken. */
export async function setRole(base: string, admin: Account, account: Account, role: string) {
  const { status, data } = await call(
    base,
    'PATCH',
    `/api/auth/users/${account.id}`,
    { role },
    admin.accessToken,
  );
  if (status !== 200)
    throw new Error(`role ${role} for ${account.email} answered ${status}: ${JSON.stringify(data)}`);
}

/**
 * Opens `route` of the app at `base` with `refreshToken` where the session provider spends it on
 * load. The token is written from /healthz, a small document of the same origin.
 */
export async function gotoWithToken(page: Page, base: string, refreshToken: string, route = '/') {
  await page.goto(`${base}/healthz`);
  await page.evaluate((token) => localStorage.setItem('refreshToken', token), refreshToken);
  await page.goto(`${base}${route}`);
}

/** Opens the app already signed in: the session provider spends this refresh token on load. */
export async function openSignedIn(browser: Browser, base: string, account: Account, route = '/') {
  const { refreshToken } = await logIn(base, account.email, account.password);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await gotoWithToken(page, base, refreshToken, route);
  await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
  return { page, errors };
}

let axeScript: string | undefined;
const axeSource = () => {
  axeScript ??= fs.readFileSync(
    path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'),
    'utf8',
  );
  return axeScript;
};

/** axe-core in the page; returns the serious and critical findings inside `selector`. */
export async function axeFindings(page: Page, selector?: string) {
  // Colours are judged once the opening fade has finished.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy forbids inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  return page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown) => Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run(include ? { include: [include] } : document);
    return (result.violations as { id: string; impact: string; nodes: { target: unknown }[] }[])
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((n) => n.target),
      }));
  }, selector ?? null);
}

/** Light and dark screenshots of what is on screen now. */
export async function screenshotBothThemes(page: Page, name: string, fullPage = true) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(artifactsDir, `${name}-${colorScheme}.png`), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The Account Settings overlay as a person uses it. */
export class SettingsPage {
  readonly dialog: Locator;
  readonly pictureModal: Locator;

  constructor(
    readonly page: Page,
    readonly userName: string,
  ) {
    this.dialog = page.getByRole('dialog', { name: 'Account Settings' });
    this.pictureModal = page.getByRole('dialog', { name: 'Change Profile Picture' });
  }

  async open() {
    await this.page.getByRole('button', { name: `Account menu for ${this.userName}` }).click();
    await this.page.getByRole('menuitem', { name: 'Settings' }).click();
    await this.dialog.waitFor();
  }

  button(name: string) {
    return this.dialog.getByRole('button', { name, exact: true });
  }

  field(label: string) {
    return this.dialog.getByLabel(label, { exact: true });
  }

  /** Waits until the overlay's message reads `text`. */
  async expectStatus(text: string, scope: Locator = this.dialog) {
    await scope.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
  }

  async statusText(scope: Locator = this.dialog) {
    return (await scope.getByRole('status').first().textContent())?.trim();
  }

  async openPictureModal() {
    await this.button('Change Photo').click();
    await this.pictureModal.waitFor();
  }

  /** The profile card's picture: its src once a picture exists. */
  async avatarSrc() {
    const image = this.dialog.locator('.settings-profile img');
    return (await image.count()) > 0 ? image.getAttribute('src') : null;
  }
}
