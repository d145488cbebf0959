import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { type Algorithm, hash, type Options, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * @node-rs/argon2 hashes on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says
 * otherwise), so the event loop stays free. At most one hash per core runs at a time, and never
 * more than 3, so one pool thread stays free for what else uses it (WebCrypto behind the JWT
 * checks of every signed-in call, file I/O); the rest wait in line instead of thrashing.
 */
export const defaultHashConcurrency = () => Math.max(1, Math.min(os.availableParallelism(), 3));

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private dummy: Promise<string> | undefined;

  constructor(private readonly concurrency = defaultHashConcurrency()) {}

  hash(password: string): Promise<string> {
    return this.limited(() => hash(password, ARGON2_OPTIONS));
  }

  /** False for a wrong password or a hash that can't be read. */
  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.limited(() => verify(passwordHash, password).catch(() => false));
  }

  /** Prepares the dummy hash ahead of the first unknown e-mail. */
  warmUp(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(16).toString('base64url'));
    return this.dummy;
  }

  /** Spends the time of a real verification for an unknown account, so timing reveals nothing. */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(await this.warmUp(), password);
    return false;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
