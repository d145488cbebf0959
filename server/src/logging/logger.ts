import pino, { type DestinationStream, type Logger } from 'pino';

/** Body and object fields whose values never reach a log line. */
const SECRET_KEYS = [
  'password',
  'new_password',
  'current_password',
  'newPassword',
  'currentPassword',
  'token',
  'access_token',
  'refresh_token',
  'accessToken',
  'refreshToken',
  'id_token',
  'secret',
  'client_secret',
  'authorization',
  'cookie',
];

const redactPaths = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  ...SECRET_KEYS.map((key) => `*.*.${key}`),
  // Verification codes travel in request bodies and queries; `code` elsewhere is an error code
  // (`err.code: "ECONNREFUSED"`, `code: "login_lockout"`) that a log must keep.
  ...['body.code', '*.body.code', 'query.code', '*.query.code'],
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.headers["set-cookie"]',
];

/** Query parameters whose values are replaced in logged URLs (OIDC returns tokens in the query). */
const SECRET_QUERY = /([?&](?:access_token|refresh_token|code|state|token|id_token|password)=)[^&#]*/gi;

/** A guest pass's token is a path segment (docs/passes.md#tokens): `/pass/{token}`, `/api/pass/{token}/…`. */
const PASS_TOKEN = /(\/pass\/)[^/?#]+/gi;

/** An API token anywhere in an address (docs/api.md#api-tokens: refused there, and never logged). */
const API_TOKEN = /hearth_[A-Za-z0-9]{40}/g;

export function redactUrl(url: string): string {
  return url
    .replace(SECRET_QUERY, '$1[Redacted]')
    .replace(PASS_TOKEN, '$1[Redacted]')
    .replace(API_TOKEN, 'hearth_[Redacted]');
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[Redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
