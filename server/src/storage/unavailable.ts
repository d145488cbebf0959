/** Error codes of a database that cannot be reached right now (not of a query that is wrong). */
const CONNECTION_CODES = new Set([
  // The network or the server process (node-postgres passes Node's socket errors through).
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // PostgreSQL: shutting down, crashed, starting up, out of connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // SQLite: the file is locked by another writer beyond the busy time-out, or unreadable.
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
]);

/** node-postgres says so in words when a connection dies or cannot be had in time. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;

/**
 * Whether an error means the database is unreachable for now (answer 503 and retry later),
 * rather than that a query failed. Looks through `cause` and AggregateError's `errors`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || code.startsWith('SQLITE_IOERR')) return true;
    // SQLSTATE class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
