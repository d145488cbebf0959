import type { Migration } from 'kysely';
import { migration as m0001 } from './0001_users.js';

/**
 * Every migration, in order. Names are zero-padded so they sort; never rename or edit one that
 * has shipped: add a new file instead. Listed statically so the bundled server needs no folder.
 */
export const migrations: Record<string, Migration> = {
  '0001_users': m0001,
};
