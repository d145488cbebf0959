import type { Locator, Page } from 'playwright-core';

/** The Users page (/users) as a resident or admin uses it. */
export class UsersPage {
  constructor(readonly page: Page) {}

  async goto(base: string) {
    await this.page.goto(`${base}/users`);
  }

  heading() {
    return this.page.getByRole('heading', { name: 'Users', level: 1 });
  }

  row(userName: string): Locator {
    return this.page.locator('tbody tr').filter({ hasText: `@${userName}` });
  }

  roleSelect(userName: string) {
    return this.page.getByLabel(`Role for ${userName}`, { exact: true });
  }

  /**
   * Picks a role and, for a person with access rules, answers the question about them
   * (docs/screens.md#role-and-lock-changes); a person without rules is asked nothing.
   */
  async changeRole(userName: string, role: string, rules?: 'Keep rules' | 'Reset rules') {
    await this.roleSelect(userName).selectOption(role);
    if (!rules) return;
    await this.page
      .getByRole('dialog', { name: `Make ${userName} a ${role}?` })
      .getByRole('button', { name: rules })
      .click();
  }

  /** The roles a viewer can actually pick for this row. */
  async enabledRoles(userName: string) {
    return this.roleSelect(userName)
      .locator('option:not([disabled])')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  }

  lockButton(userName: string) {
    return this.row(userName).getByRole('button');
  }

  async waitForRows() {
    await this.page.locator('tbody tr:not(.users-row--skeleton)').first().waitFor();
  }

  async search(text: string) {
    await this.page.getByPlaceholder('Search by name or email...').fill(text);
    await this.page.getByRole('button', { name: 'Search', exact: true }).click();
  }

  async setPageSize(label: '10/page' | '20/page' | '50/page' | '100/page') {
    await this.page.getByLabel('Users per page').selectOption({ label });
  }

  pageLabel() {
    return this.page.getByText(/^Page \d+ of \d+$/);
  }

  snackbar(text: string) {
    return this.page.locator('.toast').filter({ hasText: text });
  }
}
