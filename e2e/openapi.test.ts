import { expect, it } from 'vitest';
import { screenshotBothThemes } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// Issue 38, acceptance 2, in Chromium: /api/docs renders the OpenAPI document with Swagger UI from
// the server itself: no request leaves the machine, and the page's CSP refuses nothing.
const suite = useE2e();

it('renders the API reference at /api/docs with every request to this server', async () => {
  const page = await suite.page({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(`${suite.server.url}/api/docs`);
  await page.locator('.swagger-ui .info .title').filter({ hasText: 'Hearth API' }).waitFor();
  const commands = page.locator('.opblock').filter({ hasText: '/api/devicehub/devices/{id}/commands' });
  await commands.first().waitFor();
  // Both ways in are offered (the Authorize dialog lists them).
  await page
    .getByRole('button', { name: /Authorize/ })
    .first()
    .click();
  await page.getByText('accessToken').first().waitFor();
  await page.getByText('apiToken').first().waitFor();
  await page.keyboard.press('Escape');
  // An operation opens with its error answers.
  await commands.first().locator('.opblock-summary').click();
  await commands
    .first()
    .getByText(/The caller may not make this call/)
    .first()
    .waitFor();
  await commands.first().getByText('Request body is too large').first().waitFor();
  await screenshotBothThemes(page, 'api-docs', false);

  expect(requests.length).toBeGreaterThan(3);
  // The server's own origin (a loopback address) and nothing else, inline data aside.
  const own = new URL(suite.server.url).origin;
  expect(['localhost', '127.0.0.1']).toContain(new URL(own).hostname);
  const elsewhere = requests.filter((url) => {
    const { protocol, origin } = new URL(url);
    return !(protocol === 'data:' || protocol === 'blob:' || origin === own);
  });
  expect(elsewhere).toEqual([]);
  expect(requests.some((url) => url.endsWith('/api/openapi.json'))).toBe(true);
  expect(problems).toEqual([]);
});
