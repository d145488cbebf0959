import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  raw: string;
  /** The six-digit code the mail carries, if any. */
  code: string | undefined;
}

/** Reads the six-digit code out of a Hearth code mail (plain text part, indented line). */
export function codeIn(raw: string): string | undefined {
  return (
    /^\s{2,}(\d{6})\s*$/m.exec(raw)?.[1] ??
    /\b(\d{6})\b/.exec(
      raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n'),
    )?.[1]
  );
}

/**
 * A real SMTP server on a free loopback port that keeps every message it receives, so browser
 * tests can read the codes Hearth mails, as a person would from their inbox.
 */
export class MailCatcher {
  readonly messages: CaughtMail[] = [];
  private waiters: { matches(mail: CaughtMail): boolean; after: number; resolve(mail: CaughtMail): void }[] =
    [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
          this.receive({ to, subject, raw, code: codeIn(raw) });
          callback();
        });
      },
    });
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** How many messages have arrived so far (a mark for nextTo). */
  count(): number {
    return this.messages.length;
  }

  /** The first message to `address` (and with a subject matching) after the mark `after`. */
  nextTo(address: string, after = this.count(), subject?: RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
    const to = address.toLowerCase();
    const matches = (mail: CaughtMail) => mail.to.includes(to) && (!subject || subject.test(mail.subject));
    const already = this.messages.slice(after).find(matches);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no mail to ${address} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        matches,
        after,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  }

  /** The code of the next mail to `address` after the mark (with a subject matching). */
  async nextCode(address: string, after?: number, subject?: RegExp): Promise<string> {
    const mail = await this.nextTo(address, after, subject);
    if (!mail.code) throw new Error(`mail "${mail.subject}" to ${address} carries no code`);
    return mail.code;
  }

  private receive(mail: CaughtMail) {
    this.messages.push(mail);
    const index = this.messages.length - 1;
    this.waiters = this.waiters.filter((waiter) => {
      if (index >= waiter.after && waiter.matches(mail)) {
        waiter.resolve(mail);
        return false;
      }
      return true;
    });
  }
}

/** Subjects of Hearth's code mails, to tell them apart. */
export const SUBJECTS = {
  signIn: /sign-in code/i,
  twoFactorSetup: /two-factor/i,
  passwordReset: /reset your/i,
  verifyEmail: /verify your/i,
};

export const startMailCatcher = () => new MailCatcher().start();
