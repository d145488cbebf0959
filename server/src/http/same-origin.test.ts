import { describe, expect, it } from 'vitest';
import { fromOwnPage, type OwnPageRequest } from './same-origin.js';

const PUBLIC = 'https://hearth.example';

const request = (
  method: string,
  headers: Record<string, string>,
  addressedTo: Pick<OwnPageRequest, 'protocol' | 'host'> = { protocol: 'http', host: '192.168.1.20:8080' },
): OwnPageRequest => ({ method, headers, ...addressedTo });

describe('fromOwnPage: may the auth cookie sign this request in', () => {
  it.each([
    // [what, method, headers, verdict]
    ['a GET from anywhere', 'GET', { 'sec-fetch-site': 'cross-site' }, true],
    ['a HEAD without headers', 'HEAD', {}, true],
    ['a POST the browser calls same-origin', 'POST', { 'sec-fetch-site': 'same-origin' }, true],
    ['a POST from another port of the host', 'POST', { 'sec-fetch-site': 'same-site' }, false],
    ['a DELETE from another site', 'DELETE', { 'sec-fetch-site': 'cross-site' }, false],
    ['a PUT the person typed (none)', 'PUT', { 'sec-fetch-site': 'none' }, false],
    [
      'Sec-Fetch-Site wins over a matching Origin',
      'POST',
      { 'sec-fetch-site': 'same-site', origin: PUBLIC },
      false,
    ],
    ['no Sec-Fetch-Site, Origin PUBLIC_URL', 'POST', { origin: PUBLIC }, true],
    ['no Sec-Fetch-Site, Origin PUBLIC_URL with its default port', 'POST', { origin: `${PUBLIC}:443` }, true],
    ['no Sec-Fetch-Site, Origin the address used', 'PATCH', { origin: 'http://192.168.1.20:8080' }, true],
    ['no Sec-Fetch-Site, another port', 'POST', { origin: 'http://192.168.1.20:18999' }, false],
    ['no Sec-Fetch-Site, the address over https', 'POST', { origin: 'https://192.168.1.20:8080' }, false],
    ['no Sec-Fetch-Site, a sibling subdomain', 'POST', { origin: 'https://evil.hearth.example' }, false],
    ['an opaque Origin', 'POST', { origin: 'null' }, false],
    ['an Origin that is no URL', 'POST', { origin: 'hearth' }, false],
    ['neither header (curl with a cookie)', 'POST', {}, false],
  ] as const)('%s', (_what, method, headers, verdict) => {
    expect(fromOwnPage(request(method, headers), PUBLIC)).toBe(verdict);
  });

  it('compares with the scheme and host a trusted proxy passed on', () => {
    const proxied = { protocol: 'https' as const, host: 'home.example' };
    expect(fromOwnPage(request('POST', { origin: 'https://home.example' }, proxied), PUBLIC)).toBe(true);
    expect(fromOwnPage(request('POST', { origin: 'http://home.example' }, proxied), PUBLIC)).toBe(false);
  });
});
