/** Tables for external identity-provider links (OIDC), added by migration 0004. */

/** One account at an OpenID provider, linked to one Hearth user. */
export interface UserIdentitiesTable {
  provider: string;
  /** The provider's `sub` claim: stable, unlike the e-mail. */
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}

/**
 * A sign-in under way: what the callback must check (state, nonce) and prove (PKCE verifier).
 * Kept in the database so that any instance can finish a sign-in another one started.
 */
export interface OidcLoginStatesTable {
  state: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
  /** Set when a signed-in user connects the provider from Settings: the identity is linked to them. */
  link_user_id: string | null;
  /** The web app's one-time nonce, echoed back with the tokens so only that browser takes them. */
  browser_nonce: string | null;
}

export interface IdentityTables {
  user_identities: UserIdentitiesTable;
  oidc_login_states: OidcLoginStatesTable;
}
