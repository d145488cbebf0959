import zlib from 'node:zlib';
import type { Device } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { byName, useHousehold, waitFor } from './devicehub-test-kit.js';

// GET /api/devicehub/devices as the Devices page loads it (issue 10): compressed, answered 304
// while unchanged, and the first screen by name before the rest.
describe('the device list over HTTP', () => {
  const h = useHousehold();
  const get = (url: string, headers: Record<string, string> = {}) =>
    h.app.app.inject({ url, headers: { authorization: `Bearer ${h.resident}`, ...headers } });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ])('compresses the list with %s to the same JSON', async (encoding, decode) => {
    const plain = await get('/api/devicehub/devices');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await get('/api/devicehub/devices', { 'accept-encoding': `${encoding}, identity` });
    expect(packed.statusCode).toBe(200);
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(decode(packed.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('answers 304 while the list is unchanged and 200 with the news after a change', async () => {
    const first = await get('/api/devicehub/devices');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/api/devicehub/devices', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    await h.z2m.publish('Front door', { contact: true, battery: 42 });
    const changed = await waitFor(async () => {
      const answer = await get('/api/devicehub/devices', { 'if-none-match': etag });
      return answer.statusCode === 200 ? answer : undefined;
    });
    expect(changed.headers.etag).not.toBe(etag);
    expect(byName(changed.json<Device[]>(), 'Front door')?.state.battery).toBe(42);
    const unchanged = await get('/api/devicehub/devices', {
      'if-none-match': changed.headers.etag as string,
    });
    expect(unchanged.statusCode).toBe(304);
  });

  it('gives the first N devices in the order the page shows them (by name)', async () => {
    const answer = await get('/api/devicehub/devices?first=2');
    expect(answer.statusCode).toBe(200);
    expect(answer.json<Device[]>().map((device) => device.name)).toEqual(['Front door', 'Kitchen remote']);
    const all = await get('/api/devicehub/devices?first=500');
    expect(all.json<Device[]>().map((device) => device.name)).toEqual([
      'Front door',
      'Kitchen remote',
      'Living room/Lamp',
      'Stairs switch',
    ]);
    // A rename moves the device in that order.
    const stairs = byName(all.json<Device[]>(), 'Stairs switch')!;
    await h.call('PATCH', `/api/devicehub/devices/${stairs.id}`, { name: 'Attic switch' });
    const renamed = await waitFor(async () => {
      const names = (await get('/api/devicehub/devices?first=1')).json<Device[]>().map((d) => d.name);
      return names[0] === 'Attic switch' ? names : undefined;
    });
    expect(renamed).toEqual(['Attic switch']);
  });

  it.each(['0', '501', '2.5', 'ten', ''])('refuses first=%s with 400', async (value) => {
    const answer = await get(`/api/devicehub/devices?first=${value}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'first must be a whole number from 1 to 500' });
  });

  it('refuses first given twice with 400', async () => {
    expect((await get('/api/devicehub/devices?first=1&first=2')).statusCode).toBe(400);
  });

  it('gives the devices of the ids asked for, in that order, leaving out unknown ones', async () => {
    const all = (await get('/api/devicehub/devices')).json<Device[]>();
    const [a, b] = [all[2] as Device, all[0] as Device];
    const answer = await get(`/api/devicehub/devices?ids=${a.id},no-such-device,${b.id},${a.id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<Device[]>().map((device) => device.id)).toEqual([a.id, b.id]);
  });

  it.each([
    ['ids=', 'ids must be 1 to 100 device ids, comma-separated'],
    ['ids=a,,b', 'ids must be 1 to 100 device ids, comma-separated'],
    [
      `ids=${Array.from({ length: 101 }, (_, i) => `d${i}`).join(',')}`,
      'ids must be 1 to 100 device ids, comma-separated',
    ],
    ['ids=a&first=2', 'Give first or ids, not both'],
  ])('refuses %s with 400', async (query, error) => {
    const answer = await get(`/api/devicehub/devices?${query}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error });
  });
});
