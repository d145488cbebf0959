import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { MailThread } from './mail-thread.js';
import type { MailContent } from './templates.js';

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: Logger;
  /**
   * Whether other instances may share this one's database (PostgreSQL): then an outbox in this
   * instance's DATA_DIR is a trap, and starting without SMTP_URL is warned about.
   */
  sharedDatabase?: boolean;
}

/** Logged at start with PostgreSQL and no SMTP_URL. */
export const LOCAL_OUTBOX_WARNING =
  "SMTP_URL is not set: mail stays in this instance's outbox ($DATA_DIR/outbox) and is never delivered; with several instances behind a load balancer, set SMTP_URL";

/** How long close() waits for mail still being sent (an SMTP server can take minutes to time out). */
export const MAIL_CLOSE_WAIT_MS = 5000;

/**
 * Outgoing mail. With SMTP_URL it is delivered; otherwise each message is written as an .eml
 * file to $DATA_DIR/outbox/ and logged (recipient and subject only: never the code). nodemailer
 * runs on a thread of its own (mail-thread.ts), away from the device stream.
 */
export class Mailer {
  private readonly transport: MailThread;
  private readonly outbox: string | undefined;
  /** Sends under way, and mail jobs started without waiting (background()): close() waits for them. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: MailerOptions) {
    this.transport = new MailThread(options.smtpUrl);
    if (!options.smtpUrl) {
      this.outbox = path.join(options.dataDir, 'outbox');
      if (options.sharedDatabase) options.log.warn({ outbox: this.outbox }, LOCAL_OUTBOX_WARNING);
    }
  }

  send(to: string, content: MailContent): Promise<void> {
    return this.background(this.deliver(to, content));
  }

  /**
   * Keeps `job` (a mail and what it needs first, e.g. issuing its code) until it ends, so a shutdown
   * waits for it rather than cutting a message off half-written or after the database is gone.
   */
  background<T>(job: Promise<T>): Promise<T> {
    this.pending.add(job);
    const done = () => this.pending.delete(job);
    job.then(done, done);
    return job;
  }

  private async deliver(to: string, content: MailContent): Promise<void> {
    const message = await this.transport.send({ from: this.options.from, to, ...content });
    if (!this.outbox) {
      this.options.log.info({ to, subject: content.subject }, 'mail sent');
      return;
    }
    await fs.mkdir(this.outbox, { recursive: true, mode: 0o700 });
    const file = path.join(
      this.outbox,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID()}.eml`,
    );
    if (!message) throw new Error('the outbox transport answered no message');
    await fs.writeFile(file, message, { mode: 0o600 });
    this.options.log.info({ to, subject: content.subject, file }, 'mail written to outbox');
  }

  /** Waits (at most MAIL_CLOSE_WAIT_MS) for the mail still being sent, then closes the transport. */
  async close(waitMs = MAIL_CLOSE_WAIT_MS): Promise<void> {
    if (this.pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), waitMs);
      });
      const settled = Promise.allSettled([...this.pending]);
      if ((await Promise.race([settled, late])) === 'late')
        this.options.log.warn(
          { mails: this.pending.size },
          'mail still being sent at shutdown; not waiting for it',
        );
      clearTimeout(timer);
    }
    this.transport.close();
  }
}
