const KNOWN_NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  gitlab: 'GitLab',
  microsoft: 'Microsoft',
  authentik: 'Authentik',
  keycloak: 'Keycloak',
  authelia: 'Authelia',
};

/** A provider's display name (docs/api.md#identity-provider): the known ones, else the id capitalised. */
export const providerName = (id: string): string =>
  KNOWN_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
