import type { Logger } from 'pino';
import type { UsersRepository } from '../users/index.js';
import type { PasswordHasher } from './password-hasher.js';

/** ADMIN_EMAIL/ADMIN_PASSWORD: create this administrator at start when there is no user yet. */
export async function seedAdmin(
  email: string | undefined,
  password: string | undefined,
  users: UsersRepository,
  hasher: PasswordHasher,
  log: Logger,
): Promise<void> {
  if (!email || !password || (await users.count()) > 0) return;
  const userName =
    email
      .split('@')[0]
      ?.replace(/[^A-Za-z0-9._-]/g, '')
      .slice(0, 32) ?? '';
  try {
    await users.create({
      email,
      userName: userName.length >= 3 ? userName : 'admin',
      firstName: 'Admin',
      lastName: 'Hearth',
      passwordHash: await hasher.hash(password),
      role: 'admin',
      emailConfirmed: true,
    });
    log.info({ email }, 'administrator created from ADMIN_EMAIL');
  } catch (error) {
    // Another instance seeded it at the same moment.
    if ((await users.count()) === 0) throw error;
  }
}
