/** Every message the push calls answer with (docs/alerts.md#web-push); asserted in tests. */
export const PUSH_ERRORS = {
  endpointHttps: 'endpoint must be an https: URL of at most 2000 characters',
  endpointPrivate: 'endpoint must not point to a private, loopback or link-local address',
  endpointUnresolved: 'endpoint names a host that cannot be found',
  p256dh: 'keys.p256dh must be a P-256 public key (65 bytes, base64url)',
  auth: 'keys.auth must be 16 bytes (base64url)',
  keys: 'keys must be {p256dh, auth}',
  notFound: 'Subscription not found',
} as const;
