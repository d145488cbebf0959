import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, useTestStorage } from '../../test/databases.js';
import type { Storage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { UsersRepository } from './users.repository.js';

describe.each(testDatabases())('users repository on $name', ({ create }) => {
  const t = useTestStorage(create);
  let storage: Storage;
  let users: UsersRepository;
  beforeAll(() => {
    storage = t.storage;
    users = new UsersRepository(storage.db);
  });

  it('runs migrations again without applying anything (idempotent)', async () => {
    expect(await migrateToLatest(storage.db)).toEqual([]);
  });

  it('creates a user with a random UUID and reads it back by id, e-mail and user name', async () => {
    const created = await users.create({
      email: ' Ada@Example.COM ',
      userName: 'Ada.L',
      firstName: 'Ada',
      lastName: 'Lovelace',
      passwordHash: '$argon2id$fake',
      role: 'admin',
    });
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created).toMatchObject({
      email: 'ada@example.com',
      userName: 'Ada.L',
      role: 'admin',
      emailConfirmed: false,
      twoFactorEnabled: false,
      lockoutEnabled: false,
    });
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    expect(await users.findById(created.id)).toEqual(created);
    expect(await users.findByEmail('ADA@example.com')).toEqual(created);
    expect(await users.findByUserName('ada.l')).toEqual(created);
    expect(await users.findById(crypto.randomUUID())).toBeUndefined();
  });

  it('refuses a second account with the same e-mail or user name in another case', async () => {
    const base = { firstName: 'B', lastName: 'C', passwordHash: null, role: 'user' as const };
    await users.create({ ...base, email: 'bob@example.com', userName: 'bob' });
    await expect(users.create({ ...base, email: 'BOB@example.com', userName: 'bob2' })).rejects.toThrow();
    await expect(users.create({ ...base, email: 'bob3@example.com', userName: 'BOB' })).rejects.toThrow();
  });

  it('keeps rows across a restart (close and reopen)', async () => {
    const before = await users.count();
    const created = await users.create({
      email: 'restart@example.com',
      userName: 'restart',
      firstName: 'Re',
      lastName: 'Start',
      passwordHash: null,
      role: 'user',
    });
    storage = await t.reopen();
    users = new UsersRepository(storage.db);
    expect(await migrateToLatest(storage.db)).toEqual([]);
    expect(await users.findById(created.id)).toEqual(created);
    expect(await users.count()).toBe(before + 1);
  });
});

describe.each(testDatabases())('first account on $name', ({ name, create }) => {
  it('makes exactly one admin when several accounts are created at once on an empty database', async () => {
    const database = await create();
    // Concurrent requests; on PostgreSQL through separate connection pools, like separate
    // instances. (A SQLite install is one process with one connection.)
    const storages =
      name === 'postgres' ? [database.open(), database.open(), database.open()] : [database.open()];
    try {
      await migrateToLatest(storages[0]!.db);
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          new UsersRepository(storages[i % storages.length]!.db).create({
            email: `first${i}@example.com`,
            userName: `first${i}`,
            firstName: 'F',
            lastName: 'A',
            passwordHash: null,
            role: 'admin-if-first',
          }),
        ),
      );
      expect(created.filter((user) => user.role === 'admin')).toHaveLength(1);
      expect(created.filter((user) => user.role === 'user')).toHaveLength(5);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
      await database.drop();
    }
  });
});
