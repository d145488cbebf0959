import { describe, expect, it } from 'vitest';
import { toSessionView } from './session-view.js';

const row = (user_agent: string | null) => ({
  id: 's1',
  user_id: 'u1',
  user_agent,
  ip: '192.0.2.7',
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: '2026-01-02T00:00:00.000Z',
  expires_at: '2026-02-01T00:00:00.000Z',
  revoked_at: null,
  authenticated_at: null,
});

describe('session view', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      'Chrome on macOS',
      'Desktop',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0', 'Firefox on Android', 'Phone'],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
      'Tablet',
    ],
    [null, 'Unknown browser', 'Unknown device'],
    ['curl/8.5.0', 'Unknown browser', 'Unknown device'],
  ])('%s → %s, %s', (ua, browser, device) => {
    expect(toSessionView(row(ua), 's1')).toMatchObject({ browser, device, current: true, ip: '192.0.2.7' });
  });
});
