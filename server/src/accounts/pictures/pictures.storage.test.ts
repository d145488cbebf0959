import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../../test/app.js';
import { testDatabases } from '../../../test/databases.js';

const PICTURE = /^\/api\/auth\/profile\/pictures\/([0-9a-f]{32}\.png)$/;

describe.each(testDatabases())('profile pictures in the database on $name', ({ name, create }) => {
  const t = useTestApp({ database: create });

  const generate = async (userId: string) => {
    const user = await t.hearth.users.findById(userId);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/generate-avatar',
      headers: { authorization: `Bearer ${await t.tokenFor(user!)}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json().profile_picture_url as string;
  };

  it('moves the picture files an earlier version kept in DATA_DIR in at start, and deletes them', async () => {
    const owner = await t.user('user');
    const gone = await t.user('user');
    const folder = path.join(t.hearth.config.dataDir, 'pictures');
    fs.mkdirSync(folder, { recursive: true });
    const kept = `${'a'.repeat(32)}.png`;
    const replaced = `${'b'.repeat(32)}.png`;
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(folder, kept), bytes);
    fs.writeFileSync(path.join(folder, replaced), bytes);
    await t.hearth.storage.db
      .updateTable('users')
      .set({ profile_picture: kept })
      .where('id', '=', owner.id)
      .execute();
    // Not picture-shaped: never touched.
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'mine');

    const restarted = await startTestApp(t.database);
    try {
      const served = await restarted.app.inject({ method: 'GET', url: `/api/auth/profile/pictures/${kept}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['cache-control']).toBe('private, max-age=86400');
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(
        (await restarted.app.inject({ method: 'GET', url: `/api/auth/profile/pictures/${replaced}` }))
          .statusCode,
      ).toBe(404);
      expect(fs.readdirSync(folder).sort()).toEqual(['notes.txt']);
      expect(restarted.logs.text).toContain('profile picture files moved into the database');
    } finally {
      await restarted.close();
    }
    // The first instance serves it too, from the same database.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/auth/profile/pictures/${kept}` })).statusCode,
    ).toBe(200);
    expect((await t.hearth.users.findById(gone.id))?.profilePicture).toBeNull();
  });

  it.runIf(name === 'postgres')(
    'an instance with its own DATA_DIR on the same database serves a picture made on another',
    async () => {
      const me = await t.user('user');
      const url = await generate(me.id);
      expect(url).toMatch(PICTURE);
      const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-other-'));
      const other = await startTestApp({
        ...t.database,
        appOptions: () => ({ ...t.database.appOptions(), dataDir: ownDir }),
      });
      try {
        const here = await t.app.inject({ method: 'GET', url });
        const there = await other.app.inject({ method: 'GET', url });
        expect(there.statusCode).toBe(200);
        expect(there.headers['content-type']).toBe('image/png');
        expect(there.headers['x-content-type-options']).toBe('nosniff');
        expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
        // Replaced on the other instance: gone for both.
        const token = await accessTokenOn(other, me.id);
        const replaced = await other.app.inject({
          method: 'POST',
          url: '/api/auth/profile/generate-avatar',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(replaced.statusCode).toBe(200);
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: replaced.json().profile_picture_url })).statusCode,
        ).toBe(200);
      } finally {
        await other.close();
        fs.rmSync(ownDir, { recursive: true, force: true });
      }
    },
  );
});

async function accessTokenOn(app: Awaited<ReturnType<typeof startTestApp>>, userId: string) {
  const user = await app.users.findById(userId);
  return (await app.sessions.issue(user!)).access_token;
}
