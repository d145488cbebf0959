import type { FastifyContextConfig } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Module } from '../../lifecycle/module.js';
import type { Database } from '../../storage/schema.js';
import type { UsersRepository } from '../../users/index.js';
import type { SessionTokens } from '../session-tokens.js';
import { IdentitiesRepository } from './identities.repository.js';
import { registerOidcRoutes } from './oidc.routes.js';
import type { OidcSettings } from './oidc-client.js';
import { OidcSignIn } from './oidc-sign-in.service.js';

export interface OidcModuleDeps {
  /** OIDC_*; unset: no provider is offered and every provider path answers 404. */
  settings: OidcSettings | undefined;
  publicUrl: string;
  db: Kysely<Database>;
  log: Logger;
  users: UsersRepository;
  sessions: SessionTokens;
  /** Route config limiting unauthenticated calls per client address (AUTH_RATE_LIMIT). */
  limit: FastifyContextConfig;
}

/** Sign-in through an OpenID Connect provider: /api/auth/oauth/… */
export function oidcModule(deps: OidcModuleDeps): Module {
  const identities = new IdentitiesRepository(deps.db);
  const signIn = deps.settings
    ? new OidcSignIn(deps.settings.provider, deps.users, identities, deps.sessions, deps.log)
    : undefined;
  return {
    name: 'oidc',
    register: (app) => registerOidcRoutes(app, { ...deps, identities, signIn }),
  };
}
