import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  raw: string;
  subject: string;
  /** The six-digit code in the message. */
  code: string | undefined;
}

/** A real SMTP server on a free port that keeps every message it is given (tests only). */
export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  private waiters: (() => void)[] = [];
  private server = new SMTPServer({
    secure: false,
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const unfolded = raw.replace(/=\r?\n/g, '');
        this.mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: unfolded,
          subject: /^Subject: (.*)$/m.exec(unfolded)?.[1]?.trim() ?? '',
          code: /(?:^|\s)(\d{6})(?:\s|$)/m.exec(unfolded)?.[1],
        });
        for (const wake of this.waiters.splice(0)) wake();
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  }

  /** Waits for the next mail to `to` (after `after` mails to them) whose subject matches. */
  async next(to: string, subject: RegExp, timeoutMs = 5000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find(
        (mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject),
      );
      if (found) {
        this.mails.splice(this.mails.indexOf(found), 1);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Mails to `to` received so far and not taken by next(). */
  count(to: string): number {
    return this.mails.filter((mail) => mail.to.includes(to.toLowerCase())).length;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
