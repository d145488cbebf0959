import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';

describe('GET /api/config with DEVICEHUB_TOPIC_PREFIX=myhome', () => {
  const t = useTestApp({ env: { DEVICEHUB_TOPIC_PREFIX: 'myhome' } });

  it('tells anyone, signed in or not, the device stream topic prefix the server uses', async () => {
    const response = await t.app.inject('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ devicehub_topic_prefix: 'myhome' });
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});

describe('GET /api/config without DEVICEHUB_TOPIC_PREFIX', () => {
  const t = useTestApp();

  it('answers the default prefix, hearth', async () => {
    const response = await t.app.inject('/api/config');
    expect(response.json()).toEqual({ devicehub_topic_prefix: 'hearth' });
  });
});
