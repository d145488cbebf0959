import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Algorithm, Options } from '@node-rs/argon2';
import { Argon2Workers } from './argon2-workers.js';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/** One hashing thread per core: the event loop never computes a hash. */
export const defaultHashConcurrency = () => Math.max(1, os.availableParallelism());

export class PasswordHasher {
  private readonly workers: Argon2Workers;
  private dummy: Promise<string> | undefined;

  constructor(concurrency = defaultHashConcurrency()) {
    this.workers = new Argon2Workers(concurrency);
  }

  hash(password: string): Promise<string> {
    return this.workers.hash(password, ARGON2_OPTIONS);
  }

  /** False for a wrong password or a hash that can't be read. */
  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.workers.verify(passwordHash, password);
  }

  /** Prepares the dummy hash ahead of the first unknown e-mail. */
  warmUp(): Promise<string> {
    if (!this.dummy) {
      this.dummy = this.hash(randomBytes(16).toString('base64url'));
      this.dummy.catch(() => {}); // a warm-up cut short by shutdown is no error
    }
    return this.dummy;
  }

  /** Spends the time of a real verification for an unknown account, so timing reveals nothing. */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(await this.warmUp(), password);
    return false;
  }

  close(): Promise<void> {
    return this.workers.close();
  }
}
