/** Tables for external identity-provider links (OIDC), added by migration 0004. */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the OIDC sign-in
export interface IdentityTables {}
