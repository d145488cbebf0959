import type { Browser, Locator, Page, WebSocket } from 'playwright-core';
import { eventually } from '../../server/test/wait.js';
import { type Account, apiCall, gotoWithToken, logIn } from './settings.page.js';

export interface DevicesPageOptions {
  /** Refuse every /ws/devicehub WebSocket (the stream is down, HTTP still works). */
  blockStream?: boolean;
  viewport?: { width: number; height: number };
  /** A script run in the page before its own scripts, on every load (Playwright's addInitScript). */
  initScript?: () => void;
}

/** The Devices page as a person sees it, opened already signed in. */
/**
 * Waits until a device tile shows its device online: the simulator takes a device offline at
 * random for 10–40 s (as real ones drop off), and an offline device ignores commands.
 */
export async function tileOnline(tile: Locator) {
  await eventually(
    async () => (await tile.getAttribute('class')) ?? '',
    (classes) => !classes.split(' ').includes('is-offline'),
    45_000,
  );
}

export class DevicesPage {
  readonly sockets: WebSocket[] = [];
  readonly errors: string[] = [];

  private constructor(readonly page: Page) {
    page.on('websocket', (socket) => this.sockets.push(socket));
    page.on('pageerror', (error) => this.errors.push(error.message));
  }

  static async open(browser: Browser, base: string, account: Account, options: DevicesPageOptions = {}) {
    const { refreshToken } = await logIn(base, account.email, account.password);
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 900 } });
    const devices = new DevicesPage(page);
    if (options.blockStream) {
      await page.routeWebSocket(/\/ws\/devicehub/, (socket) =>
        socket.close({ code: 1008, reason: 'blocked by test' }),
      );
    }
    if (options.initScript) await page.addInitScript(options.initScript);
    await gotoWithToken(page, base, refreshToken, '/devices');
    return devices;
  }

  heading = () => this.page.getByRole('heading', { level: 1, name: 'Devices' });
  text = (text: string | RegExp) => this.page.getByText(text);
  tile = (name: string): Locator => this.page.locator(`article[aria-label="${name}"]`);
  tiles = () => this.page.locator('article.device-tile');
  icon = (name: string) => this.tile(name).locator('[data-icon]');
  pills = (name: string) => this.tile(name).locator('.pills .pill');
  power = (name: string) => this.tile(name).getByRole('switch', { name: `Power ${name}` });
  online = (name: string) => tileOnline(this.tile(name));
  control = (name: string, label: string) => this.tile(name).getByLabel(label, { exact: true });
  errorCard = () => this.page.locator('.error-card');

  async pillTexts(name: string) {
    return this.pills(name).allTextContents();
  }

  /** docs/screens.md#the-tiles-menu: rename, history, room, star, recording and access are in "…". */
  async openMenu(name: string) {
    const button = this.tile(name).getByRole('button', { name: `Options for ${name}` });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }

  async rename(name: string, to: string) {
    await this.openMenu(name);
    await this.tile(name)
      .getByRole('button', { name: `Rename ${name}` })
      .click();
    const field = this.page.getByLabel('Device name');
    await field.fill(to);
    await field.press('Enter');
  }

  async close() {
    await this.page.close().catch(() => {});
  }
}

export interface HubDevice {
  id: string;
  name: string;
  state: Record<string, unknown>;
}

/** What the server holds, read through the REST API. */
export async function hubDevices(base: string, account: Account): Promise<HubDevice[]> {
  const { accessToken } = await logIn(base, account.email, account.password);
  const { status, data } = await apiCall<HubDevice[]>(
    base,
    'GET',
    '/api/devicehub/devices',
    undefined,
    accessToken,
  );
  if (status !== 200) throw new Error(`GET /api/devicehub/devices answered ${status}`);
  return data;
}
