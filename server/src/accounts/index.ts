// The accounts domain as other domains and app.ts see it.
export { type AccountsModule, type AccountsModuleDeps, accountsModule } from './accounts.module.js';
export { type ApiTokenGuard, AUTH_COOKIE, type TokenReader } from './authenticate.js';
export { type OidcModuleDeps, oidcModule } from './oidc/oidc.module.js';
export { type PicturesModuleDeps, picturesModule } from './pictures/pictures.module.js';
export type { IssueOptions, SessionTokens, TokenPair } from './session-tokens.js';
