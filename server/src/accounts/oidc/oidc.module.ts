import type { FastifyContextConfig } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Module } from '../../lifecycle/module.js';
import type { NoticeMailWording } from '../../mail/index.js';
import type { Database } from '../../storage/schema.js';
import type { Guards, UsersRepository } from '../../users/index.js';
import { identityLinkedNotice } from '../code-mail.js';
import type { SessionTokens } from '../session-tokens.js';
import { IdentitiesRepository } from './identities.repository.js';
import { COOKIE_PATH, registerOidcRoutes } from './oidc.routes.js';
import { OidcClient, type OidcSettings } from './oidc-client.js';
import { OidcFlow } from './oidc-flow.service.js';
import { OidcSignIn } from './oidc-sign-in.service.js';
import { providerName } from './provider-name.js';

export interface OidcModuleDeps {
  /** OIDC_*; unset: no provider is offered and every provider path answers 404. */
  settings: OidcSettings | undefined;
  publicUrl: string;
  db: Kysely<Database>;
  log: Logger;
  users: UsersRepository;
  sessions: SessionTokens;
  /** Route guards (Settings' connect, list and unlink are for the signed-in user). */
  guards: Guards;
  /** Mails the owner a notice (an identity was connected). */
  notify: (to: string, wording: NoticeMailWording) => void;
  /** Route config limiting unauthenticated calls per client address (AUTH_RATE_LIMIT). */
  limit: FastifyContextConfig;
}

/** Sign-in through an OpenID Connect provider: /api/auth/oauth/… */
export function oidcModule(deps: OidcModuleDeps): Module {
  const { settings, sessions, log } = deps;
  const identities = new IdentitiesRepository(deps.db);
  const flow = settings
    ? new OidcFlow({
        provider: settings.provider,
        client: new OidcClient(settings, `${deps.publicUrl}${COOKIE_PATH}/${settings.provider}/callback`),
        identities,
        signIn: new OidcSignIn(settings.provider, deps.users, identities, log),
        sessions,
        onLinked: (user, email) =>
          deps.notify(user.email, identityLinkedNotice(providerName(settings.provider), email)),
      })
    : undefined;
  return {
    name: 'oidc',
    register: (app) =>
      registerOidcRoutes(app, {
        settings,
        flow,
        secureCookie: deps.publicUrl.startsWith('https:'),
        log,
        limit: deps.limit,
        guards: deps.guards,
        identities,
        sessions,
      }),
  };
}
