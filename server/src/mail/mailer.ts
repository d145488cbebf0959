import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
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

/**
 * Outgoing mail. With SMTP_URL it is delivered; otherwise each message is written as an .eml
 * file to $DATA_DIR/outbox/ and logged (recipient and subject only: never the code).
 */
export class Mailer {
  private readonly transport: Transporter;
  private readonly outbox: string | undefined;

  constructor(private readonly options: MailerOptions) {
    if (options.smtpUrl) {
      this.transport = nodemailer.createTransport(options.smtpUrl);
    } else {
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.outbox = path.join(options.dataDir, 'outbox');
      if (options.sharedDatabase) options.log.warn({ outbox: this.outbox }, LOCAL_OUTBOX_WARNING);
    }
  }

  async send(to: string, content: MailContent): Promise<void> {
    const info = await this.transport.sendMail({ from: this.options.from, to, ...content });
    if (!this.outbox) {
      this.options.log.info({ to, subject: content.subject }, 'mail sent');
      return;
    }
    await fs.mkdir(this.outbox, { recursive: true, mode: 0o700 });
    const file = path.join(
      this.outbox,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID()}.eml`,
    );
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.options.log.info({ to, subject: content.subject, file }, 'mail written to outbox');
  }

  close(): void {
    this.transport.close();
  }
}
