import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accessToken, createUser, startTestApp } from '../../test/app.js';
import { sqliteDatabase } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';

/** Every folder and file under `root`, with its permission bits in octal ("700", "600"). */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = { '.': (fs.statSync(root).mode & 0o777).toString(8) };
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      found[path.relative(root, full)] = (fs.statSync(full).mode & 0o777).toString(8);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return found;
}

describe('DATA_DIR is private to Hearth’s user', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-modes-'));
  const database = sqliteDatabase();
  afterAll(async () => {
    fs.rmSync(parent, { recursive: true, force: true });
    await database.drop();
  });

  it('creates DATA_DIR 0700 and the database, its WAL/SHM and secrets 0600 (whatever the umask)', async () => {
    const previous = process.umask(0o022);
    const dataDir = path.join(parent, 'fresh', 'data');
    const hearth = await startTestApp(database, {
      DATA_DIR: dataDir,
      MQTT_LISTEN_PORT: String(await freePort()),
    });
    try {
      const user = await createUser(hearth, 'user');
      const response = await hearth.app.inject({
        method: 'POST',
        url: '/api/auth/profile/generate-avatar',
        headers: { authorization: `Bearer ${await accessToken(hearth, user)}` },
      });
      expect(response.statusCode).toBe(200);
      const found = modes(dataDir);
      expect(found).toMatchObject({
        '.': '700',
        'hearth.db': '600',
        'hearth.db-wal': '600',
        'hearth.db-shm': '600',
        secrets: '700',
        'secrets/bus-password': '600',
        'secrets/mqtt-listen-password': '600',
      });
      const open = Object.entries(found).filter(([, mode]) => mode !== '700' && mode !== '600');
      expect(open).toEqual([]);
    } finally {
      await hearth.close();
      process.umask(previous);
    }
  });

  it('narrows an existing DATA_DIR and database that others could read', async () => {
    const dataDir = path.join(parent, 'old');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'hearth.db'), '');
    fs.chmodSync(path.join(dataDir, 'hearth.db'), 0o644);
    const hearth = await startTestApp(database, { DATA_DIR: dataDir });
    try {
      expect(modes(dataDir)).toMatchObject({ '.': '700', 'hearth.db': '600' });
    } finally {
      await hearth.close();
    }
  });
});
