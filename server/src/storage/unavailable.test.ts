import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), true],
    [
      'both addresses refused (AggregateError)',
      Object.assign(new AggregateError([withCode('ECONNREFUSED')]), { code: 'ECONNREFUSED' }),
      true,
    ],
    ['an AggregateError without a code of its own', new AggregateError([withCode('ECONNREFUSED')]), true],
    [
      'PostgreSQL shutting down',
      withCode('57P01', 'terminating connection due to administrator command'),
      true,
    ],
    ['PostgreSQL starting up', withCode('57P03', 'the database system is starting up'), true],
    ['a connection exception (class 08)', withCode('08006'), true],
    ['a dropped connection', new Error('Connection terminated unexpectedly'), true],
    ['no connection from the pool in time', new Error('timeout exceeded when trying to connect'), true],
    ['a wrapped cause', new Error('query failed', { cause: withCode('ECONNRESET') }), true],
    ['a locked SQLite file', withCode('SQLITE_BUSY'), true],
    ['an SQLite I/O error', withCode('SQLITE_IOERR_SHORT_READ'), true],
    ['a unique violation', withCode('23505', 'duplicate key value'), false],
    ['a syntax error', withCode('42601'), false],
    ['an SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE'), false],
    ['a plain error', new Error('boom'), false],
    ['not an error', 'ECONNREFUSED', false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
