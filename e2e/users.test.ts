import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  apiCall,
  axeFindings,
  openSignedIn,
  screenshotBothThemes,
  setRole,
  signUp,
} from './support/settings.page.js';
import { useE2e } from './support/suite.js';
import { UsersPage } from './support/users.page.js';

describe('Users page in Chromium', () => {
  const suite = useE2e({ env: { SIMULATOR: 'off' } });
  let admin: Account;
  let resident: Account;
  let plain: Account;
  const pages: Page[] = [];

  const open = async (account: Account) => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, account, '/users');
    pages.push(page);
    return { users: new UsersPage(page), page, errors };
  };

  beforeAll(async () => {
    admin = await signUp(suite.server.url, { first_name: 'Grace', last_name: 'Hopper', user_name: 'grace' });
    resident = await signUp(suite.server.url, { first_name: 'Rita', last_name: 'Levi', user_name: 'rita' });
    plain = await signUp(suite.server.url, { first_name: 'Uma', last_name: 'Plain', user_name: 'uma' });
    for (let n = 1; n <= 9; n++) {
      await signUp(suite.server.url, {
        first_name: `Guest${n}`,
        last_name: 'Visitor',
        user_name: `guest${n}`,
      });
    }
    await setRole(suite.server.url, admin, resident, 'resident');
  });
  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
  });

  it('lets an admin page, search, change roles and lock accounts', async () => {
    const { users, page, errors } = await open(admin);
    await users.heading().waitFor();
    await users.waitForRows();
    await page.getByText('Manage roles, lockouts, and search the directory · 12 total').waitFor();
    expect(await users.page.getByLabel('Users per page').inputValue()).toBe('20');
    expect(await users.pageLabel().textContent()).toBe('Page 1 of 1');
    expect(await users.enabledRoles('uma')).toEqual(['user', 'resident', 'admin']);
    expect(await users.row('uma').getByText('Unverified').count()).toBe(1);
    expect(await users.row('uma').getByText('Active', { exact: true }).count()).toBe(1);

    expect(await axeFindings(page, 'main')).toEqual([]);
    await screenshotBothThemes(page, 'users');

    await users.setPageSize('10/page');
    await page.getByText('Page 1 of 2').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(10);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    // The page label follows the click at once; the rows come with the answer.
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);

    await users.search('uma');
    await page.getByText('Page 1 of 1').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    expect(await users.row('uma').count()).toBe(1);

    // Uma has no access rules: nothing to keep, so the role changes at once (issue 33).
    await users.changeRole('uma', 'resident');
    await users.snackbar('Role updated').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.waitForFunction(
      () =>
        (document.querySelector('[aria-label="Role for uma"]') as HTMLSelectElement | null)?.value ===
        'resident',
    );
    // With a rule set for her, the change asks first.
    const den = await apiCall<{ id: string }>(
      suite.server.url,
      'POST',
      '/api/rooms',
      { name: 'Den' },
      admin.accessToken,
    );
    const rule = { user_id: plain.id, rooms: { [den.data.id]: 'view' }, devices: {} };
    expect(
      (await apiCall(suite.server.url, 'PUT', `/api/access/${plain.id}`, rule, admin.accessToken)).status,
    ).toBe(200);
    await users.snackbar('Role updated').waitFor({ state: 'detached', timeout: 4000 });
    await users.changeRole('uma', 'user', 'Reset rules');
    await users.snackbar('Role updated').waitFor();
    const rules = await apiCall<{ rooms: object }>(
      suite.server.url,
      'GET',
      `/api/access/${plain.id}`,
      undefined,
      admin.accessToken,
    );
    expect(rules.data.rooms).toEqual({});

    await users.lockButton('uma').click();
    await users.snackbar('User locked').waitFor();
    await users.row('uma').getByText('Locked', { exact: true }).waitFor();
    expect(await users.lockButton('uma').textContent()).toBe('Unlock');
    const locked = await apiCall(suite.server.url, 'POST', '/api/auth/login/start', {
      email: plain.email,
      password: plain.password,
    });
    expect(locked.status).toBe(423);

    await users.lockButton('uma').click();
    await users.snackbar('User unlocked').waitFor();
    await users.row('uma').getByText('Active', { exact: true }).waitFor();
    await users.snackbar('User unlocked').waitFor({ state: 'detached', timeout: 4000 });
    expect(errors).toEqual([]);
  });

  it('offers a resident only the resident role and leaves admins alone', async () => {
    const { users, page } = await open(resident);
    await users.waitForRows();
    expect(await users.enabledRoles('uma')).toEqual(['user', 'resident']);
    expect(await users.roleSelect('grace').isDisabled()).toBe(true);
    expect(await users.lockButton('grace').isDisabled()).toBe(true);
    expect(await users.roleSelect('rita').isDisabled()).toBe(true);
    expect(await axeFindings(page, 'main')).toEqual([]);
  });

  it('tells a plain user they may not view the page', async () => {
    const { page } = await open(plain);
    await page.getByText('You do not have permission to view this page.').waitFor();
    expect(await page.locator('table').count()).toBe(0);
  });

  it('stays readable on a 360 px phone', async () => {
    const { users, page } = await open(admin);
    await page.setViewportSize({ width: 360, height: 740 });
    await users.waitForRows();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshotBothThemes(page, 'users-phone', false);
  });
});
