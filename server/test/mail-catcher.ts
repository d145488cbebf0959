import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  /** The message as received, with quoted-printable soft line breaks undone. */
  raw: string;
  /** The six-digit code the mail carries, if any. */
  code: string | undefined;
}

/** Subjects of Hearth's code mails, to tell them apart. */
export const SUBJECTS = {
  signIn: /sign-in code/i,
  twoFactorSetup: /two-factor/i,
  passwordReset: /reset your/i,
  verifyEmail: /verify your/i,
};

/** Reads the six-digit code out of a Hearth code mail (the body, not the headers). */
export function codeIn(raw: string): string | undefined {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return /^\s{2,}(\d{6})\s*$/m.exec(body)?.[1] ?? /(?:^|\s)(\d{6})(?:\s|$)/m.exec(body)?.[1];
}

/**
 * A real SMTP server on a free loopback port that keeps every message it is given, so tests read
 * the codes Hearth mails as a person would from their inbox. Server and browser tests share it.
 */
export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  /** Mails next() has handed out: each is handed out once. */
  private readonly taken = new Set<CaughtMail>();
  private waiters: (() => void)[] = [];
  private port = 0;
  private readonly server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        this.mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw,
          subject: /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
          code: codeIn(raw),
        });
        for (const wake of this.waiters.splice(0)) wake();
        callback();
      });
    },
  });

  /** SMTP_URL for Hearth. */
  get url(): string {
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

  /** A mark for next(…, { after }): only mails arriving from now on count. */
  mark(): number {
    return this.mails.length;
  }

  /** Mails to `to` received so far and not yet handed out by next(). */
  count(to: string): number {
    return this.mails.filter((mail) => !this.taken.has(mail) && mail.to.includes(to.toLowerCase())).length;
  }

  /** Waits for the first mail to `to` not handed out yet (after the mark, subject matching). */
  async next(
    to: string,
    subject?: RegExp,
    { after = 0, timeoutMs = 10_000 }: { after?: number; timeoutMs?: number } = {},
  ): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    const address = to.toLowerCase();
    for (;;) {
      const found = this.mails
        .slice(after)
        .find(
          (mail) =>
            !this.taken.has(mail) && mail.to.includes(address) && (!subject || subject.test(mail.subject)),
        );
      if (found) {
        this.taken.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The code of the next such mail. */
  async code(
    to: string,
    subject?: RegExp,
    options?: { after?: number; timeoutMs?: number },
  ): Promise<string> {
    const mail = await this.next(to, subject, options);
    if (!mail.code) throw new Error(`mail "${mail.subject}" to ${to} carries no code`);
    return mail.code;
  }
}

export const startMailCatcher = () => new MailCatcher().start();
