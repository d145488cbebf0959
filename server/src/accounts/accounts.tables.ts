/** Tables of the accounts domain (sessions, codes, login attempts…), added by migration 0002. */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the accounts domain
export interface AccountsTables {}
