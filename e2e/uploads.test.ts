import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUS_LOGIN, freePort, type RunningServer, startServer } from './support/server.js';
import { type Account, signUp } from './support/settings.page.js';

/** The server process's resident memory now, in MB (Linux). */
const residentMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
};

/** A 16-megapixel PNG (the most an upload may have) that still fits in a few MB: a soft gradient. */
async function sixteenMegapixels(): Promise<Buffer> {
  const side = 4000;
  const raw = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const i = (y * side + x) * 3;
      raw[i] = x >> 4;
      raw[i + 1] = y >> 4;
      raw[i + 2] = (x + y) >> 5;
    }
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

async function upload(base: string, account: Account, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'big.png');
  const response = await fetch(`${base}/api/auth/profile/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.accessToken}` },
    body: form,
  });
  return response.status;
}

describe('uploads on the built server', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-uploads-'));
  // DATA_DIR does not exist yet: the server makes it, under its own umask.
  const dataDir = path.join(parent, 'data');
  let server: RunningServer;
  let accounts: Account[];
  let picture: Buffer;

  beforeAll(async () => {
    [server, picture] = await Promise.all([
      // As `npm start` runs it (package.json): one malloc arena, a small young generation, V8's
      // helper threads one fewer than the cores.
      startServer({
        MALLOC_ARENA_MAX: '1',
        NODE_OPTIONS: '--max-semi-space-size=2 --v8-pool-size=0',
        DATA_DIR: dataDir,
        MQTT_LISTEN_PORT: String(await freePort()),
        ...BUS_LOGIN,
      }),
      sixteenMegapixels(),
    ]);
    accounts = [
      await signUp(server.url, { first_name: 'Ada', last_name: 'Admin', user_name: 'ada' }),
      await signUp(server.url, { first_name: 'Uma', last_name: 'User', user_name: 'uma' }),
    ];
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('keeps 16 parallel 16-megapixel uploads under +60 MB of resident memory', async () => {
    expect(picture.length).toBeLessThan(5 * 1024 * 1024);
    const pid = server.process.pid as number;
    // The first upload loads sharp (tens of MB, once): the baseline is after it. It is the most
    // seen over the next 500 ms, not one reading: glibc hands freed pages back to the system at
    // moments of its own, and a reading taken just after such a trim (142 MB once, 158–169 MB
    // usually) made the same peak look 15 MB larger.
    expect(await upload(server.url, accounts[0] as Account, picture)).toBe(200);
    let before = residentMb(pid);
    for (let i = 0; i < 25; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      before = Math.max(before, residentMb(pid));
    }
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentMb(pid));
    }, 20);
    const started = Date.now();
    // 8 each from two people: under the per-user limit, so all 16 go through the image queue.
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => upload(server.url, accounts[i % 2] as Account, picture)),
    );
    clearInterval(sampler);
    peak = Math.max(peak, residentMb(pid));
    const growth = peak - before;
    console.log(
      `16 parallel uploads of ${(picture.length / 1e6).toFixed(1)} MB, 16 Mpx PNG: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${growth.toFixed(0)} MB) in ${Date.now() - started} ms`,
    );
    expect(statuses).toEqual(Array(16).fill(200));
    expect(growth).toBeLessThan(60);
  });

  it('refuses an upload over 16 megapixels at once, and the eleventh upload of one person in 10 minutes', async () => {
    const huge = await sharp({
      create: { width: 7800, height: 5000, channels: 3, background: { r: 90, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    expect(await upload(server.url, accounts[1] as Account, huge)).toBe(413);
    // Ada has 9 uploads in this window (1 + 8 above): the 10th passes, the 11th does not.
    const small = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    expect(await upload(server.url, accounts[0] as Account, small)).toBe(200);
    expect(await upload(server.url, accounts[0] as Account, small)).toBe(429);
  });

  it('writes DATA_DIR 0700 and every file in it 0600', async () => {
    await server.stop();
    const open: string[] = [];
    const walk = (dir: string) => {
      const mode = fs.statSync(dir).mode & 0o777;
      if (mode !== 0o700) open.push(`${path.relative(dataDir, dir) || '.'} ${mode.toString(8)}`);
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if ((fs.statSync(full).mode & 0o777) !== 0o600) {
          open.push(`${path.relative(dataDir, full)} ${(fs.statSync(full).mode & 0o777).toString(8)}`);
        }
      }
    };
    walk(dataDir);
    expect(open).toEqual([]);
    const files = fs.readdirSync(dataDir, { recursive: true }).map(String);
    expect(files).toEqual(expect.arrayContaining(['hearth.db', 'secrets/bus-password', 'pictures']));
    // Pictures live in the database; the folder only held uploads while they were checked.
    expect(files.filter((file) => file.startsWith('pictures/'))).toEqual([]);
  });
});
