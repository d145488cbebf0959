// API tokens as app.ts sees them (docs/api.md#api-tokens).
export { TOKEN_CALLS, tokenCall } from './tokens.calls.js';
export { type ApiTokensModule, type ApiTokensModuleDeps, apiTokensModule } from './tokens.module.js';
