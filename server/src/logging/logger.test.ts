import { describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import { createLogger } from './logger.js';

const lineOf = (write: (log: ReturnType<typeof createLogger>) => void) => {
  const capture = new LogCapture();
  write(createLogger('info', capture));
  return JSON.parse(capture.lines[0] ?? '{}');
};

describe('log redaction', () => {
  it('keeps error codes such as ECONNREFUSED, at the top and in a serialised error', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const line = lineOf((log) => log.warn({ err: error, code: 'login_lockout' }, 'database unreachable'));
    expect(line.err.code).toBe('ECONNREFUSED');
    expect(line.code).toBe('login_lockout');
  });

  it('hides verification codes in request bodies and secrets anywhere', () => {
    const line = lineOf((log) =>
      log.info(
        {
          body: { code: '123456', email: 'a@example.com' },
          request: { body: { code: '654321' } },
          user: { password: 'hunter22', refresh_token: 'r', token: 't' },
        },
        'call',
      ),
    );
    expect(line.body).toEqual({ code: '[Redacted]', email: 'a@example.com' });
    expect(line.request.body.code).toBe('[Redacted]');
    expect(line.user).toEqual({ password: '[Redacted]', refresh_token: '[Redacted]', token: '[Redacted]' });
  });

  it('hides guest pass tokens in logged URLs', () => {
    const token = 'Ab3_-x'.repeat(7);
    const line = lineOf((log) =>
      log.info(
        { req: { method: 'GET', url: `/api/pass/${token}/devices?x=1`, ip: '192.0.2.1' } },
        'incoming request',
      ),
    );
    expect(line.req.url).toBe('/api/pass/[Redacted]/devices?x=1');
    const page = lineOf((log) =>
      log.info({ req: { method: 'GET', url: `/pass/${token}` } }, 'incoming request'),
    );
    expect(page.req.url).toBe('/pass/[Redacted]');
    expect(JSON.stringify([line, page])).not.toContain(token);
  });
});
