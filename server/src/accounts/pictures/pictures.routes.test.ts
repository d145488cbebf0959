import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { testDatabases } from '../../../test/databases.js';
import { MANAGING_ANOTHER } from '../../../test/users.js';
import type { Role, UserRecord } from '../../users/index.js';
import { MAX_UPLOAD_BYTES } from './pictures.routes.js';

/** A multipart/form-data body with one file part, as a browser's FormData would send it. */
function formData(filename: string, contentType: string, data: Buffer, field = 'file') {
  const boundary = `----hearth${crypto.randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const SECRET = 'Hearth-Secret-Location-52.37N';
const withExif = (image: Sharp) =>
  image.withMetadata({ exif: { IFD0: { Copyright: SECRET, ImageDescription: SECRET } } });
const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

describe.each(testDatabases())('profile pictures on $name', ({ create }) => {
  const t = useTestApp({ database: create });
  const makeUser = (role: Role) => t.user(role);
  const auth = async (user: UserRecord) => ({ authorization: `Bearer ${await t.tokenFor(user)}` });
  const upload = async (
    user: UserRecord | undefined,
    file: { name: string; type: string; data: Buffer },
    query = '',
  ) => {
    const body = formData(file.name, file.type, file.data);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/auth/profile/upload${query}`,
      headers: { ...(user ? await auth(user) : {}), 'content-type': body.contentType },
      payload: body.payload,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const fetchPicture = (url: string) => t.app.inject({ method: 'GET', url });

  const samples: [string, () => Promise<Buffer>][] = [
    ['png', () => withExif(canvas(900, 600)).png().toBuffer()],
    ['jpeg', () => withExif(canvas(640, 1000)).jpeg().toBuffer()],
    ['webp', () => withExif(canvas(300, 200)).webp().toBuffer()],
    ['gif', () => canvas(700, 700).gif().toBuffer()],
  ];

  it.each(samples)(
    'accepts a %s, re-encoded square, at most 512 px, without metadata',
    async (format, make) => {
      const me = await makeUser('user');
      const input = await make();
      expect((await sharp(input).metadata()).format).toBe(format);
      if (format !== 'gif') expect(input.includes(Buffer.from(SECRET))).toBe(true);
      const result = await upload(me, { name: `me.${format}`, type: `image/${format}`, data: input });
      expect(result.status).toBe(200);
      expect(result.body.id).toBe(me.id);
      expect(result.body.profile_picture_url).toMatch(/^\/api\/auth\/profile\/pictures\/[0-9a-f]{32}\.webp$/);

      const served = await fetchPicture(result.body.profile_picture_url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('private, max-age=86400');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.width).toBe(meta.height);
      expect(meta.width).toBeLessThanOrEqual(512);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(served.rawPayload.includes(Buffer.from(SECRET))).toBe(false);
    },
  );

  it('keeps a small picture small instead of blowing it up', async () => {
    const me = await makeUser('user');
    const result = await upload(me, {
      name: 'tiny.png',
      type: 'image/png',
      data: await canvas(64, 40).png().toBuffer(),
    });
    const meta = await sharp((await fetchPicture(result.body.profile_picture_url)).rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([40, 40]);
  });

  it('sniffs the real type: a PNG called .jpg and sent as text/plain is still a picture', async () => {
    const me = await makeUser('user');
    const png = await canvas(100, 100).png().toBuffer();
    const result = await upload(me, { name: 'holiday.jpg', type: 'text/plain', data: png });
    expect(result.status).toBe(200);
  });

  it.each([
    [
      'an SVG',
      'face.svg',
      'image/svg+xml',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ],
    ['an SVG dressed up as a PNG', 'face.png', 'image/png', '<?xml version="1.0"?><svg></svg>'],
    ['a text file called .png', 'notes.png', 'image/png', 'just some text, honest'],
    ['an HTML page', 'page.gif', 'image/gif', '<html><body>hi</body></html>'],
  ])('refuses %s with 415', async (_label, name, type, text) => {
    const me = await makeUser('user');
    const result = await upload(me, { name, type, data: Buffer.from(text) });
    expect(result).toEqual({
      status: 415,
      body: { error: 'Only PNG, JPEG, WebP and GIF images are accepted' },
    });
    expect((await t.hearth.users.findById(me.id))?.profilePicture).toBeNull();
  });

  it('refuses a corrupt image with the right magic bytes with 415, and stays up', async () => {
    const me = await makeUser('user');
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(500, 7),
    ]);
    const result = await upload(me, { name: 'broken.png', type: 'image/png', data: fake });
    expect(result).toEqual({ status: 415, body: { error: 'The image could not be read' } });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBeLessThan(600);
  });

  it('accepts a picture over the 1 MB JSON limit but refuses one over 5 MB with 413', async () => {
    const me = await makeUser('user');
    const noise = Buffer.alloc(1100 * 1100 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1100, height: 1100, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    expect((await upload(me, { name: 'big.png', type: 'image/png', data: big })).status).toBe(200);

    const huge = Buffer.concat([big, Buffer.alloc(5 * 1024 * 1024 - big.length + 1)]);
    const result = await upload(me, { name: 'huge.png', type: 'image/png', data: huge });
    expect(result).toEqual({ status: 413, body: { error: 'File too large (max 5MB)' } });
  });

  it('refuses more than 16 megapixels with 413 before decoding, and takes 16 megapixels', async () => {
    const me = await makeUser('user');
    // Small files (one colour compresses well) whose headers claim many pixels.
    const over = await canvas(4001, 4000).png().toBuffer();
    expect(over.length).toBeLessThan(MAX_UPLOAD_BYTES);
    expect(await upload(me, { name: 'big.png', type: 'image/png', data: over })).toEqual({
      status: 413,
      body: { error: 'Image too large (max 16 megapixels)' },
    });
    const thirtyNine = await canvas(7800, 5000).jpeg().toBuffer();
    expect((await upload(me, { name: 'big.jpg', type: 'image/jpeg', data: thirtyNine })).status).toBe(413);
    const sixteen = await canvas(4000, 4000).png().toBuffer();
    expect((await upload(me, { name: 'ok.png', type: 'image/png', data: sixteen })).status).toBe(200);
    expect((await t.hearth.users.findById(me.id))?.profilePicture).not.toBeNull();
    expect(
      fs.readdirSync(path.join(t.hearth.config.dataDir, 'pictures')).filter((f) => f.startsWith('.')),
    ).toEqual([]);
  });

  it('limits uploads per user (10 per 10 minutes) without touching anyone else’s', async () => {
    const me = await makeUser('user');
    const other = await makeUser('user');
    const data = await canvas(20, 20).png().toBuffer();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await upload(me, { name: 'a.png', type: 'image/png', data })).status);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(await upload(me, { name: 'a.png', type: 'image/png', data })).toEqual({
      status: 429,
      body: { error: 'Too many requests, please try again later' },
    });
    expect((await upload(other, { name: 'a.png', type: 'image/png', data })).status).toBe(200);
  });

  it('replaces the old picture when a new one is set: the old one is gone from the database', async () => {
    const me = await makeUser('user');
    const data = await canvas(50, 50).png().toBuffer();
    const first = await upload(me, { name: 'a.png', type: 'image/png', data });
    const second = await upload(me, { name: 'b.png', type: 'image/png', data });
    expect(second.body.profile_picture_url).not.toBe(first.body.profile_picture_url);
    expect((await fetchPicture(first.body.profile_picture_url)).statusCode).toBe(404);
    expect((await fetchPicture(second.body.profile_picture_url)).statusCode).toBe(200);
    const kept = await t.hearth.storage.db
      .selectFrom('profile_pictures')
      .select('name')
      .where('user_id', '=', me.id)
      .execute();
    expect(kept.map((row) => row.name)).toEqual([path.basename(second.body.profile_picture_url)]);
    // Nothing is written to DATA_DIR any more (only uploads wait there, and are discarded).
    expect(fs.readdirSync(path.join(t.hearth.config.dataDir, 'pictures'))).toEqual([]);
  });

  it('needs a signed-in caller and a file in the field "file"', async () => {
    const data = await canvas(20, 20).png().toBuffer();
    expect((await upload(undefined, { name: 'a.png', type: 'image/png', data })).status).toBe(401);
    const me = await makeUser('user');
    const wrongField = formData('a.png', 'image/png', data, 'picture');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/upload',
      headers: { ...(await auth(me)), 'content-type': wrongField.contentType },
      payload: wrongField.payload,
    });
    expect(response.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/upload',
      headers: await auth(me),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
  });

  describe('setting another user’s picture (?user_id=)', () => {
    it.each(MANAGING_ANOTHER)('%s for a %s → %i', async (callerRole, targetRole, status) => {
      const me = await makeUser(callerRole);
      const target = await makeUser(targetRole);
      const data = await canvas(30, 30).png().toBuffer();
      const result = await upload(me, { name: 'a.png', type: 'image/png', data }, `?user_id=${target.id}`);
      expect(result.status).toBe(status);
      const stored = await t.hearth.users.findById(target.id);
      expect(stored?.profilePicture === null).toBe(status !== 200);
      expect((await t.hearth.users.findById(me.id))?.profilePicture).toBeNull();
    });

    it('answers 404 for an unknown user', async () => {
      const admin = await makeUser('admin');
      const data = await canvas(30, 30).png().toBuffer();
      const result = await upload(
        admin,
        { name: 'a.png', type: 'image/png', data },
        `?user_id=${crypto.randomUUID()}`,
      );
      expect(result.status).toBe(404);
    });
  });

  it('generates a pixel-art PNG avatar, different each time', async () => {
    const me = await makeUser('user');
    const headers = await auth(me);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/generate-avatar',
      headers,
      payload: {},
    });
    expect(first.statusCode).toBe(200);
    const url = first.json().profile_picture_url;
    expect(url).toMatch(/^\/api\/auth\/profile\/pictures\/[0-9a-f]{32}\.png$/);
    const served = await fetchPicture(url);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });

    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/generate-avatar',
      headers,
    });
    const other = await fetchPicture(second.json().profile_picture_url);
    expect(other.rawPayload.equals(served.rawPayload)).toBe(false);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/profile/generate-avatar' })).statusCode,
    ).toBe(401);
  });

  it.each([
    '../hearth.db',
    '..%2Fhearth.db',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    'hearth.db',
    '0123456789abcdef0123456789abcdef.svg',
    '0123456789ABCDEF0123456789ABCDEF.png',
    '.0123456789abcdef0123456789abcdef.png.tmp',
  ])('serves nothing outside the pictures folder: %s → 404', async (name) => {
    const response = await fetchPicture(`/api/auth/profile/pictures/${name}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/json/);
  });
});
