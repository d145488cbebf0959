import type { HistoryAnswer, HistoryExclusions, HistoryRawPoint } from '@hearth/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedZigbee2mqtt } from '../server/src/devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { hubDevices } from './support/devices.page.js';
import { type Account, ADA, apiCall, logIn, openSignedIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

type Segment = { start: number; end: number; label: string };
type UplotLike = {
  valToPos(value: number, scale: string, canvas?: boolean): number;
  bbox: { top: number; height: number };
  ctx: CanvasRenderingContext2D;
};

/** A smart plug in Zigbee2MQTT's own format (an on/off switch and its power). */
const PLUG = {
  ieee_address: '0x54ef44100012ab34',
  type: 'Router',
  network_address: 4321,
  supported: true,
  disabled: false,
  friendly_name: 'Kitchen/Plug',
  power_source: 'Mains (single phase)',
  interview_completed: true,
  interviewing: false,
  definition: {
    model: 'ZNCZ04LM',
    vendor: 'Aqara',
    description: 'Smart plug EU',
    options: [],
    exposes: [
      {
        type: 'switch',
        features: [
          {
            type: 'binary',
            name: 'state',
            label: 'State',
            property: 'state',
            access: 7,
            value_on: 'ON',
            value_off: 'OFF',
            value_toggle: 'TOGGLE',
          },
        ],
      },
      { type: 'numeric', name: 'power', label: 'Power', property: 'power', access: 5, unit: 'W' },
    ],
  },
};

type Drawn = { x: number[]; y: (number | null)[]; min: number; max: number };

/** What a property's uPlot chart holds: its x (s) and y columns, and the x scale. */
const drawn = (page: Page, property: string): Promise<Drawn> =>
  page.locator(`.history-chart[data-property="${property}"]`).evaluate((element) => {
    const chart = (
      element as HTMLElement & { uplot: { data: number[][]; scales: { x: { min: number; max: number } } } }
    ).uplot;
    return {
      x: [...chart.data[0]!],
      y: [...chart.data[1]!],
      min: chart.scales.x.min,
      max: chart.scales.x.max,
    };
  });

// docs/history.md#device-history-page in Chromium: a lamp reports through a scripted Zigbee2MQTT,
// goes offline and back; its page draws what the API answers, gaps included.
describe('device history page', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off' } });
  let z2m: ScriptedZigbee2mqtt;
  let admin: Account;
  let lampId: string;
  let plugId: string;
  /** The plug's toggles: from the first reading to after the last. */
  let plugFrom: number;
  let plugTo: number;

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    z2m = await ScriptedZigbee2mqtt.connect(suite.server.busUrl, 'zigbee2mqtt');
    z2m.devices.push(PLUG);
    await z2m.publishDevices();
    const lamp = await eventually(
      async () => (await hubDevices(suite.server.url, admin)).find((d) => d.name === 'Living room/Lamp'),
      (device) => device !== undefined,
    );
    lampId = lamp!.id;
    const at = async (brightness: number, state: string) => {
      await z2m.publish('Living room/Lamp', { state, brightness });
      await eventually(
        async () =>
          (await hubDevices(suite.server.url, admin)).find((d) => d.id === lampId)!.state.brightness,
        (value) => value === brightness,
      );
    };
    // The plug-like toggles: on, off, on; then offline, back, on again.
    await at(10, 'ON');
    await at(20, 'OFF');
    await at(30, 'ON');
    await z2m.publish('Living room/Lamp/availability', { state: 'offline' });
    // Offline for 1.5 s: a gap wide enough to see on the chart.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await z2m.publish('Living room/Lamp/availability', { state: 'online' });
    await at(40, 'ON');

    // The plug, toggled on the bus: on, off, on, off; offline for 3 s; back on.
    plugId = (await eventually(
      async () => (await hubDevices(suite.server.url, admin)).find((d) => d.name === 'Kitchen/Plug'),
      (device) => device !== undefined,
    ))!.id;
    plugFrom = Date.now();
    const plug = async (state: string, power: number) => {
      await z2m.publish('Kitchen/Plug', { state, power });
      await eventually(
        async () => (await hubDevices(suite.server.url, admin)).find((d) => d.id === plugId)!.state.power,
        (value) => value === power,
      );
      await new Promise((resolve) => setTimeout(resolve, 700));
    };
    await plug('ON', 60);
    await plug('OFF', 0);
    await plug('ON', 61);
    await plug('OFF', 1);
    await z2m.publish('Kitchen/Plug/availability', { state: 'offline' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await z2m.publish('Kitchen/Plug/availability', { state: 'online' });
    await plug('ON', 62);
    // Everything above is stored once the last reading is (batches are written in order).
    const token = (await logIn(suite.server.url, admin.email, admin.password)).accessToken;
    await eventually(
      () =>
        apiCall<HistoryAnswer>(
          suite.server.url,
          'GET',
          `/api/history?device_id=${plugId}&property=power&from=${plugFrom}`,
          undefined,
          token,
        ),
      ({ data }) => (data.points as HistoryRawPoint[]).some((point) => point.v === 62),
    );
    plugTo = Date.now();
  });
  afterAll(async () => {
    await z2m?.close();
  });

  it('draws the points the API answers, the toggles as steps and the offline time as a gap', async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/');
    const answered = page.waitForResponse(
      (r) => r.url().includes('/api/history?') && r.url().includes('property=brightness'),
    );
    await page.goto(`${suite.server.url}/devices/${lampId}`);
    await page.getByRole('heading', { level: 1, name: 'Living room/Lamp: history' }).waitFor();
    const answer = (await (await answered).json()) as HistoryAnswer;
    await page.locator('.history-chart[data-property="brightness"] canvas').waitFor();
    const points = answer.points as HistoryRawPoint[];
    expect(answer.resolution).toBe('raw');
    expect(points.map((p) => p.v)).toEqual([10, 20, 30, null, 40]);
    const brightness = await drawn(page, 'brightness');
    expect(brightness.x).toEqual(points.map((p) => p.t / 1000));
    expect(brightness.y).toEqual([10, 20, 30, null, 40]);
    await page.locator('.history-chart[data-property="state"] canvas').waitFor();
    expect((await drawn(page, 'state')).y).toEqual([1, 0, 1, null, 1]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws the plug's toggles as an on/off timeline matching the API, the offline time as a gap", async () => {
    const from = plugFrom - 1000;
    const to = plugTo + 1000;
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/');
    const answered = page.waitForResponse(
      (r) => r.url().includes('/api/history?') && r.url().includes('property=state'),
    );
    await page.goto(`${suite.server.url}/devices/${plugId}?from=${from}&to=${to}`);
    await page.getByRole('heading', { level: 1, name: 'Kitchen/Plug: history' }).waitFor();
    const answer = (await (await answered).json()) as HistoryAnswer;
    const timeline = page.locator('.history-timeline[data-property="state"]');
    await timeline.locator('canvas').waitFor();
    const points = answer.points as HistoryRawPoint[];
    expect(answer.resolution).toBe('raw');
    expect(points.map((p) => p.v)).toEqual([true, false, true, false, null, true]);

    // The bands: one per reading, each until the next entry; the gap ends the fourth.
    const drawnTimeline = await timeline.evaluate((element) => {
      const { segments } = (element as HTMLElement & { timeline: { segments: Segment[] } }).timeline;
      return segments.map(({ start, end, label }) => ({ start, end, label }));
    });
    const t = points.map((p) => p.t);
    expect(drawnTimeline.slice(0, 4)).toEqual([
      { start: t[0], end: t[1], label: 'On' },
      { start: t[1], end: t[2], label: 'Off' },
      { start: t[2], end: t[3], label: 'On' },
      { start: t[3], end: t[4], label: 'Off' },
    ]);
    expect(drawnTimeline[4]).toMatchObject({ start: t[5], label: 'On' });
    expect(drawnTimeline).toHaveLength(5);

    // What the canvas shows: each band in its colour, nothing at the gap; the crosshair's value.
    const colourAt = (ms: number) =>
      timeline.evaluate((element, at) => {
        const u = (element as HTMLElement & { uplot: UplotLike }).uplot;
        const x = Math.round(u.valToPos(at / 1000, 'x', true));
        const y = Math.round(u.bbox.top + u.bbox.height / 2);
        return [...u.ctx.getImageData(x, y, 1, 1).data];
      }, ms);
    const middle = (a: number, b: number) => (a + b) / 2;
    const on = await colourAt(middle(t[0]!, t[1]!));
    const off = await colourAt(middle(t[1]!, t[2]!));
    expect(on[3]).toBe(255);
    expect(off[3]).toBe(255);
    expect(on).not.toEqual(off);
    expect(await colourAt(middle(t[2]!, t[3]!))).toEqual(on);
    // Nothing at the gap, across its whole width: transparent but where a faint time-axis grid
    // line crosses it (a pixel or two), never a band's opaque colour.
    const gapAlphas = await timeline.evaluate(
      (element, [from, to]) => {
        const u = (element as HTMLElement & { uplot: UplotLike }).uplot;
        const left = Math.ceil(u.valToPos(from! / 1000, 'x', true)) + 1;
        const right = Math.floor(u.valToPos(to! / 1000, 'x', true)) - 1;
        const y = Math.round(u.bbox.top + u.bbox.height / 2);
        return [...u.ctx.getImageData(left, y, right - left, 1).data].filter((_, i) => i % 4 === 3);
      },
      [t[4]!, t[5]!],
    );
    expect(gapAlphas.length).toBeGreaterThan(10);
    expect(Math.max(...gapAlphas)).toBeLessThan(255);
    expect(gapAlphas.filter((alpha) => alpha === 0).length).toBeGreaterThan(gapAlphas.length * 0.8);

    const over = (await timeline.locator('.u-over').boundingBox())!;
    const hover = async (ms: number) => {
      const x = await timeline.evaluate((element, at) => {
        const u = (element as HTMLElement & { uplot: UplotLike }).uplot;
        return u.valToPos(at / 1000, 'x');
      }, ms);
      await page.mouse.move(over.x + x, over.y + over.height / 2);
      return timeline.locator('.u-legend .u-series').nth(1).locator('.u-value').textContent();
    };
    expect(await hover(middle(t[1]!, t[2]!))).toBe('Off');
    expect(await hover(middle(t[2]!, t[3]!))).toBe('On');
    expect(await hover(middle(t[4]!, t[5]!))).toBe('–');
    await expect.poll(() => page.locator('.timeline-key li').allTextContents()).toEqual(['Off', 'On']);

    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens from the tile's History button on the Devices page", async () => {
    const { page } = await openSignedIn(suite.browser, suite.server.url, admin, '/devices');
    await page.getByRole('button', { name: 'Options for Living room/Lamp' }).click();
    await page.getByRole('link', { name: 'History of Living room/Lamp' }).click();
    await page.getByRole('heading', { level: 1, name: 'Living room/Lamp: history' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/devices/${lampId}`);
    await page.close();
  });

  it('changes the range with the presets and with a drag across a chart', async () => {
    const { page } = await openSignedIn(suite.browser, suite.server.url, admin, `/devices/${lampId}`);
    await page.locator('.history-chart[data-property="brightness"] canvas').waitFor();
    // The 24 h view of a history a few seconds old starts just before its first reading (issue
    // 34): the readings fill the chart rather than a line at its right edge.
    const day = await eventually(
      () => drawn(page, 'brightness'),
      (d) => d.max - d.min < 3600,
    );
    expect(day.min).toBeLessThan(day.x[0]!);
    expect(day.x[0]! - day.min).toBeLessThan((day.max - day.x[0]!) / 10 + 1.5);
    expect(day.max).toBeCloseTo(Date.now() / 1000, -2);
    await page.getByText(/^Recorded since /).waitFor();

    const week = page.waitForResponse((r) => r.url().includes('property=brightness'));
    await page.getByRole('button', { name: '7 d' }).click();
    await week;
    await eventually(
      () => drawn(page, 'brightness'),
      (d) => Math.abs(d.max - d.min - 7 * 24 * 3600) < 60,
    );
    expect(await page.getByRole('button', { name: '7 d' }).getAttribute('aria-pressed')).toBe('true');

    const over = page.locator('.history-chart[data-property="brightness"] .u-over');
    const box = (await over.boundingBox())!;
    const zoomed = page.waitForResponse((r) => r.url().includes('property=brightness'));
    // The last quarter of the week: where the readings are.
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await zoomed;
    const after = await eventually(
      () => drawn(page, 'brightness'),
      (d) => d.max - d.min < 7 * 24 * 3600 * 0.3,
    );
    expect(after.max - after.min).toBeGreaterThan(7 * 24 * 3600 * 0.2);
    await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
    await page.close();
  });
  it('shows the latest reading in the legend before any hover, and what is under the crosshair on one', async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, `/devices/${plugId}`);
    const chart = page.locator('.history-chart[data-property="power"]');
    await chart.locator('canvas').waitFor();
    const legend = (index: number) => chart.locator('.u-legend .u-series').nth(index).locator('.u-value');
    // The plug's last reading: 62 W.
    expect(await legend(1).textContent()).toBe('62 W');
    expect(await legend(0).textContent()).not.toBe('--');
    const timeline = page.locator('.history-timeline[data-property="state"]');
    await timeline.locator('canvas').waitFor();
    expect(await timeline.locator('.u-legend .u-series').nth(1).locator('.u-value').textContent()).toBe('On');
    // Over the first reading the legend follows the crosshair; off the chart it is the latest again.
    const first = await drawn(page, 'power');
    const over = (await chart.locator('.u-over').boundingBox())!;
    const x = await chart.evaluate(
      (element, at) => (element as HTMLElement & { uplot: UplotLike }).uplot.valToPos(at, 'x'),
      first.x[0]!,
    );
    await page.mouse.move(over.x + x, over.y + over.height / 2);
    expect(await legend(1).textContent()).toBe('60 W');
    await page.mouse.move(1, 1);
    await eventually(
      () => legend(1).textContent(),
      (text) => text === '62 W',
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('downloads a property as CSV for the range shown', async () => {
    const { page } = await openSignedIn(suite.browser, suite.server.url, admin, `/devices/${plugId}`);
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: /^Power/ }) });
    const link = card.getByRole('link', { name: 'Download Power as CSV' });
    await link.waitFor();
    expect(await link.textContent()).toBe('CSV');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    const csv = (await import('node:fs')).readFileSync(file, 'utf8');
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    // What the API answers for the same range, values in order.
    const href = (await link.getAttribute('href'))!;
    const token = (await logIn(suite.server.url, admin.email, admin.password)).accessToken;
    const answer = await fetch(`${suite.server.url}${href}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(csv).toBe(await answer.text());
    const values = csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(values).toEqual(['60', '0', '61', '1', '62']);
    await page.close();
  });

  // The header is at its fullest after a zoom ("Reset zoom" joins the presets): at 1000 px this
  // device's name and the presets no longer fit one line with it, as at 1440 px with a longer name.
  it.each([1440, 1000])(
    'keeps "Recording settings" where it was, on one line, after a zoom at %i px',
    async (width) => {
      const { page } = await openSignedIn(suite.browser, suite.server.url, admin, `/devices/${lampId}`);
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('button', { name: '7 d' }).click();
      await eventually(
        () => drawn(page, 'brightness'),
        (d) => Math.abs(d.max - d.min - 7 * 24 * 3600) < 60,
      );
      const settings = page.getByRole('button', { name: 'Recording settings' });
      const before = (await settings.boundingBox())!;
      const over = page.locator('.history-chart[data-property="brightness"] .u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
      const after = (await settings.boundingBox())!;
      expect({ x: after.x, y: after.y }).toEqual({ x: before.x, y: before.y });
      const lines = await settings.evaluate((button) => {
        const range = document.createRange();
        range.selectNodeContents(button);
        return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
      });
      expect(lines).toBe(1);
      await page.close();
    },
  );

  it('shows a sparkline of the last 24 h on tiles on screen only, from one request each', async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/');
    // One column of tiles: most of them below the fold.
    await page.setViewportSize({ width: 600, height: 700 });
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/history' && url.searchParams.get('points') === '48')
        asked.push(`${url.searchParams.get('device_id')}:${url.searchParams.get('property')}`);
    });
    await page.goto(`${suite.server.url}/devices`);
    const plugLine = page.locator(`article[aria-label="Kitchen/Plug"] .tile-sparkline svg path`);
    const tiles = page.locator('article.device-tile:has(.tile-sparkline)');
    // What is on screen asks; what is below the fold does not (yet).
    const onScreen = async () => {
      const out: string[] = [];
      for (const tile of await tiles.all()) {
        const box = (await tile.boundingBox())!;
        // The whole tile counts: a line loads as soon as any of its tile is on screen.
        const id = (await tile.getAttribute('data-device-id'))!;
        const property = (await tile.locator('.tile-sparkline').getAttribute('data-sparkline'))!;
        if (box.y < 700 && box.y + box.height > 0) out.push(`${id}:${property}`);
      }
      return out.sort();
    };
    await page.locator('article.device-tile').first().waitFor();
    await page.waitForTimeout(1500);
    const visible = await onScreen();
    expect([...asked].sort()).toEqual(visible);
    expect(await tiles.count()).toBeGreaterThan(visible.length);

    await page.locator('article[aria-label="Kitchen/Plug"]').scrollIntoViewIfNeeded();
    // All of the plug's readings are from the last minute: the line is at the right edge (no width).
    await plugLine.waitFor({ state: 'attached' });
    expect(asked.filter((a) => a === `${plugId}:power`)).toHaveLength(1);
    // The line: 60, 0, 61, 1, (gap) 62 W over the day; its name gives the range.
    const svg = page.locator('article[aria-label="Kitchen/Plug"] .tile-sparkline svg');
    expect(await svg.getAttribute('aria-label')).toBe('Kitchen/Plug Power, last 24 h: 0–62 W');
    // Broken at the offline time: two runs of the line.
    expect((await plugLine.getAttribute('d'))?.match(/M/g)).toHaveLength(2);
    // Scrolling away and back within 5 minutes asks nothing again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('article[aria-label="Kitchen/Plug"]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    expect(asked.filter((a) => a === `${plugId}:power`)).toHaveLength(1);
    // A tile whose metric has nothing recorded shows no line.
    expect(await page.locator('article[aria-label="Front door"] .tile-sparkline svg').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps a tile as high while its line loads as once it is drawn: the tiles below do not move', async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/');
    await page.setViewportSize({ width: 600, height: 700 });
    // The plug's line is held back until the tile has been measured without it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/history' && url.searchParams.get('device_id') === plugId,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${suite.server.url}/devices`);
    const plug = page.locator('article[aria-label="Kitchen/Plug"]');
    await plug.scrollIntoViewIfNeeded();
    const line = plug.locator('.tile-sparkline');
    await plug.locator('.tile-sparkline[data-state="loading"]').waitFor();
    const loading = { tile: (await plug.boundingBox())!.height, line: (await line.boundingBox())!.height };
    expect(loading.line).toBeGreaterThanOrEqual(40);
    release();
    await plug.locator('.tile-sparkline[data-state="line"] svg path').waitFor({ state: 'attached' });
    const drawn = { tile: (await plug.boundingBox())!.height, line: (await line.boundingBox())!.height };
    expect(drawn).toEqual(loading);
    // Nothing recorded: the room is given back.
    const door = page.locator('article[aria-label="Front door"]');
    await door.scrollIntoViewIfNeeded();
    await door.locator('.tile-sparkline[data-state="none"]').waitFor({ state: 'attached' });
    expect((await door.locator('.tile-sparkline').boundingBox())?.height ?? 0).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("excludes a property from recording from the tile's History… dialog: nothing new is recorded for it", async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/devices');
    await page.getByRole('button', { name: 'Options for Kitchen/Plug' }).click();
    await page.getByRole('button', { name: 'History… (recording settings for Kitchen/Plug)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Recording settings' });
    const power = dialog.getByRole('switch', { name: 'Power', exact: true });
    await power.waitFor();
    expect(
      await dialog
        .getByRole('switch', { name: 'Record history for this device' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    expect(await power.getAttribute('aria-checked')).toBe('true');
    await power.click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/history/exclusions/') && r.request().method() === 'PUT',
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Recording settings saved').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const token = (await logIn(suite.server.url, admin.email, admin.password)).accessToken;
    const exclusions = await apiCall<HistoryExclusions>(
      suite.server.url,
      'GET',
      `/api/history/exclusions/${plugId}`,
      undefined,
      token,
    );
    expect(exclusions.data).toMatchObject({ device: false, properties: ['power'] });

    const history = async (property: string) =>
      (
        await apiCall<HistoryAnswer>(
          suite.server.url,
          'GET',
          `/api/history?device_id=${plugId}&property=${property}`,
          undefined,
          token,
        )
      ).data.points as HistoryRawPoint[];
    const powerBefore = await history('power');
    const stateBefore = await history('state');
    await z2m.publish('Kitchen/Plug', { state: 'OFF', power: 99 });
    // The state is still recorded; the power, of the same message and so of the same batch, not.
    await eventually(
      () => history('state'),
      (points) => points.length === stateBefore.length + 1,
    );
    expect(await history('power')).toEqual(powerBefore);

    // The history page's dialog shows the same settings.
    await page.goto(`${suite.server.url}/devices/${plugId}`);
    await page.getByRole('button', { name: 'Recording settings' }).click();
    expect(
      await page
        .getByRole('dialog', { name: 'Recording settings' })
        .getByRole('switch', { name: 'Power', exact: true })
        .getAttribute('aria-checked'),
    ).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });
});
