import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { clientAddressOf, proxyTrust } from './client-address.js';

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  }) as unknown as IncomingMessage;

describe('the client address of a stream upgrade (TRUST_PROXY)', () => {
  it('unset: the peer, whatever X-Forwarded-For claims', () => {
    expect(clientAddressOf(proxyTrust(undefined))(request('192.0.2.4', '203.0.113.1'))).toBe('192.0.2.4');
  });

  it('a proxy address or CIDR: the forwarded client only when the peer is that proxy', () => {
    const addressOf = clientAddressOf(proxyTrust('127.0.0.1, 10.0.0.0/8'));
    expect(addressOf(request('127.0.0.1', '203.0.113.1'))).toBe('203.0.113.1');
    expect(addressOf(request('10.1.2.3', '198.51.100.7, 203.0.113.1'))).toBe('203.0.113.1');
    expect(addressOf(request('192.0.2.4', '203.0.113.1'))).toBe('192.0.2.4');
  });

  it('"true": the first address of the chain', () => {
    expect(clientAddressOf(proxyTrust('true'))(request('192.0.2.4', '198.51.100.7, 203.0.113.1'))).toBe(
      '198.51.100.7',
    );
  });
});

describe('TRUST_PROXY=true', () => {
  const t = useTestApp({ env: { TRUST_PROXY: 'true', AUTH_RATE_LIMIT: '2' } });
  const attemptFrom = (ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login/start',
      remoteAddress: '192.0.2.4',
      headers: { 'x-forwarded-for': ip },
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });

  it('starts, and counts each forwarded client on its own', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attemptFrom('203.0.113.20')).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await attemptFrom('203.0.113.21')).statusCode).toBe(401);
  });
});
