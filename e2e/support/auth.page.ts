import type { Locator, Page } from 'playwright-core';
import { type MailCatcher, SUBJECTS } from '../../server/test/mail-catcher.js';

export interface Person {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  password: string;
}

let serial = 0;
/** A fresh person with a unique e-mail and username. */
export function newPerson(firstName = 'Ada'): Person {
  serial += 1;
  const tag = `${Date.now().toString(36)}${serial}`;
  return {
    firstName,
    lastName: 'Tester',
    userName: `${firstName.toLowerCase()}_${tag}`,
    email: `${firstName.toLowerCase()}.${tag}@example.com`,
    password: `Hearth-${tag}-pass!`,
  };
}

/** The auth modal of docs/screens.md#auth-modal, driven by its labels and button texts. */
export class AuthModal {
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.dialog = page.getByRole('dialog').filter({ has: page.getByRole('tablist', { name: 'Account' }) });
  }

  async open() {
    await this.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await this.dialog.waitFor();
  }

  field(label: string) {
    return this.dialog.getByLabel(label, { exact: true });
  }

  button(name: string) {
    return this.dialog.getByRole('button', { name, exact: true });
  }

  async signUp(person: Person) {
    await this.dialog.getByRole('tab', { name: 'Sign Up' }).click();
    await this.field('First Name').fill(person.firstName);
    await this.field('Last Name').fill(person.lastName);
    await this.field('Username').fill(person.userName);
    await this.field('Email').fill(person.email);
    await this.field('Password').fill(person.password);
    await this.button('Sign Up').click();
  }

  async logIn(email: string, password: string) {
    await this.field('Email').fill(email);
    await this.field('Password').fill(password);
    await this.button('Log In').click();
  }

  async error() {
    return this.dialog.getByRole('alert').first().textContent();
  }
}

/** The shell around every page: profile button, popover, sidebar, toast. */
export class Shell {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  toast() {
    return this.page.locator('.toast');
  }

  async waitForToast(text: string) {
    await this.page.locator('.toast', { hasText: text }).waitFor();
  }

  async logout() {
    await this.page.getByRole('button', { name: /^Account menu for/ }).click();
    await this.page.getByRole('menuitem', { name: 'Logout' }).click();
  }

  sidebarLinks() {
    return this.page
      .getByRole('navigation', { name: 'Main menu', includeHidden: true })
      .getByRole('link', { includeHidden: true });
  }
}

/** Seeding through the public API, as the browser tests' arrange step. */
export class AccountsApi {
  constructor(
    private readonly baseUrl: string,
    private readonly mail: MailCatcher,
  ) {}

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string) {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const data = (await response.json().catch(() => ({}))) as T;
    return { status: response.status, data };
  }

  async signUp(person: Person) {
    const { status, data } = await this.call('POST', '/api/auth/signup', {
      first_name: person.firstName,
      last_name: person.lastName,
      user_name: person.userName,
      email: person.email,
      password: person.password,
    });
    if (status >= 300) throw new Error(`sign-up failed: ${status} ${JSON.stringify(data)}`);
    return data as { id: string; role: string };
  }

  async logIn(person: Person) {
    const { status, data } = await this.call<{ access_token: string; refresh_token: string }>(
      'POST',
      '/api/auth/login/start',
      { email: person.email, password: person.password },
    );
    if (status !== 200 || !data.access_token)
      throw new Error(`login failed: ${status} ${JSON.stringify(data)}`);
    return data;
  }

  /** Turns on e-mail 2FA for a person, reading the set-up code from the mail. */
  async enableTwoFactor(person: Person) {
    const { access_token } = await this.logIn(person);
    const me = await this.call<{ id: string }>('GET', '/api/auth/me', undefined, access_token);
    const mark = this.mail.mark();
    const setup = await this.call('POST', '/api/auth/2fa/email/setup', { user_id: me.data.id }, access_token);
    if (setup.status >= 300)
      throw new Error(`2FA set-up failed: ${setup.status} ${JSON.stringify(setup.data)}`);
    const code = await this.mail.code(person.email, SUBJECTS.twoFactorSetup, { after: mark });
    const verify = await this.call(
      'POST',
      '/api/auth/2fa/email/verify',
      { user_id: me.data.id, code },
      access_token,
    );
    if (verify.status >= 300)
      throw new Error(`2FA verify failed: ${verify.status} ${JSON.stringify(verify.data)}`);
  }
}
