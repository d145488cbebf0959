import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Module } from '../lifecycle/module.js';
import type { Channel } from '../notifications/index.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { pushChannel } from './push.channel.js';
import { PushRepository, type VapidKeys } from './push.repository.js';
import { registerPushRoutes } from './push.routes.js';

export interface PushModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** PUSH_SUBJECT: the VAPID contact (mailto: or https:). */
  subject: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS */
  allowPrivate: boolean;
}

export interface PushModule extends Module {
  /** Web Push as a notification channel. */
  channel: Channel;
}

/** Web Push (docs/alerts.md#web-push): keys, subscriptions and the channel. */
export function pushModule(deps: PushModuleDeps): PushModule {
  const log = deps.log.child({ domain: 'push' });
  const repository = new PushRepository(deps.db);
  let keys: Promise<VapidKeys> | undefined;
  const cachedKeys = () => {
    keys ??= repository.keys().catch((error) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return {
    name: 'push',
    channel: pushChannel({
      repository,
      keys: cachedKeys,
      subject: deps.subject,
      allowPrivate: deps.allowPrivate,
      log,
    }),
    register: (app) => registerPushRoutes(app, deps.guards, repository, { allowPrivate: deps.allowPrivate }),
    async start() {
      // Made (or read) once at start, so the first subscriber does not wait for it.
      await cachedKeys();
    },
  };
}
