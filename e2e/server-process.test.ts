import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceUrl } from '../server/test/services.js';
import { type RunningServer, runServerToExit, startServer } from './support/server.js';

describe('the server process', () => {
  const running: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT "abc": expected an integer 1-65535'],
    [
      { DATABASE_URL: 'postgres//nohost' },
      'Invalid DATABASE_URL "postgres//nohost": expected a postgres://user@host:port/database URL',
    ],
  ])('exits 1 with one line for %j', async (env, line) => {
    const { code, stderr, stdout } = await runServerToExit(env);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(line);
    expect(stdout).toBe('');
  });

  it('finishes a slow in-flight request after SIGTERM, then exits 0', async () => {
    const server = await startServer({ SIMULATOR: 'off' });
    running.push(server);
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    const body = '{"slowly":"arriving body"}';
    // Headers and half the body now; the rest after the signal.
    socket.write(
      `POST /api/slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.process.exitCode).toBeNull();
    // New connections are refused while it drains.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    socket.write(body.slice(10));
    const code = await server.exited;
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(response).toContain('{"error":"Not found"}');
    expect(code).toBe(0);
  });

  it('runs on PostgreSQL when DATABASE_URL is set, and keeps data across a restart', async () => {
    const url = serviceUrl('TEST_DATABASE_URL');
    if (!url) {
      console.warn('[skipped] server on PostgreSQL: TEST_DATABASE_URL is not set');
      return;
    }
    const schema = `hearth_e2e_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const first = await startServer({ DATABASE_URL: databaseUrl, SIMULATOR: 'off' });
      running.push(first);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      const tables = await admin.query(
        'select table_name from information_schema.tables where table_schema = $1 order by 1',
        [schema],
      );
      expect(tables.rows.map((row) => row.table_name)).toContain('users');
      await admin.query(
        `insert into ${schema}.users (id, email, user_name, user_name_key, first_name, last_name, role, created_at, updated_at)
         values ($1, 'kept@example.com', 'kept', 'kept', 'K', 'E', 'user', now()::text, now()::text)`,
        [crypto.randomUUID()],
      );
      expect(await first.stop()).toBe(0);

      const second = await startServer({
        DATABASE_URL: databaseUrl,
        SIMULATOR: 'off',
        DATA_DIR: first.dataDir,
      });
      running.push(second);
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
      const kept = await admin.query(`select email from ${schema}.users`);
      expect(kept.rows).toEqual([{ email: 'kept@example.com' }]);
      expect(await second.stop()).toBe(0);
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
