import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { toBool } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';
import type { Role } from '../../users/index.js';

export interface CheckedConnection {
  userId: string;
  /** The role it connected with: a role change closes it (its reach was built for that role). */
  role: Role;
  /** The access token the connection signed in with. */
  token?: string;
  close(reason: string): void;
}

const BATCH = 500;

/**
 * Re-reads the users behind open connections on one timer for all of them and closes those whose
 * user was deleted, locked by an administrator or given another role (what they may view is the
 * access rules' to say, docs/access.md#stream; a role change also ends their sessions).
 */
export function startUserRecheck(options: {
  db: Kysely<Database>;
  intervalMs: number;
  connections: () => CheckedConnection[];
  /** Of these tokens, those whose session has ended (signed out, revoked, password changed). */
  sessionsEnded?: (tokens: string[]) => Promise<Set<string>>;
  log: Logger;
}): { stop(): void; runOnce(): Promise<void> } {
  let running = false;
  let again = false;

  const runOnce = async (): Promise<void> => {
    // A request while a run is under way (a session ended meanwhile) runs once more after it.
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const open = options.connections();
      const ids = [...new Set(open.map((c) => c.userId))];
      const roles = new Map<string, Role>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const rows = await options.db
          .selectFrom('users')
          .select(['id', 'role', 'lockout_enabled', 'lockout_reason'])
          .where('id', 'in', ids.slice(i, i + BATCH))
          .execute();
        for (const row of rows) {
          const locked = toBool(row.lockout_enabled) && row.lockout_reason === 'admin_lock';
          if (!locked) roles.set(row.id, row.role);
        }
      }
      const tokens = open.flatMap((c) => (c.token ? [c.token] : []));
      const ended =
        options.sessionsEnded && tokens.length > 0 ? await options.sessionsEnded(tokens) : new Set();
      for (const connection of open) {
        if (roles.get(connection.userId) !== connection.role) connection.close('user no longer allowed');
        else if (connection.token && ended.has(connection.token)) connection.close('session ended');
      }
    } catch (error) {
      options.log.warn({ err: error }, 'edge broker could not re-check connected users');
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      await runOnce();
    }
  };

  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
