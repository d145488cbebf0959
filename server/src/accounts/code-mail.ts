import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import { codeMail } from '../mail/templates.js';
import type { UserRecord } from '../users/users.repository.js';
import { AccountsError, MESSAGES } from './accounts.errors.js';
import type { CodePurpose } from './accounts.tables.js';
import type { OneTimeCodes } from './codes.js';

/** Issues a code of a kind and mails it to the user. */
export class CodeMail {
  constructor(
    private readonly codes: OneTimeCodes,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly log: Logger,
  ) {}

  /** Issues and sends; a delivery failure answers 502 (the caller can try again). */
  async send(user: UserRecord, purpose: CodePurpose): Promise<void> {
    const code = await this.codes.issue(user.id, purpose);
    try {
      await this.mailer.send(user.email, codeMail(purpose, code, this.publicUrl));
    } catch (error) {
      this.log.error({ err: error, purpose }, 'sending a code mail failed');
      throw new AccountsError(502, MESSAGES.mailFailed);
    }
  }

  /** Issues and sends without the caller waiting, so the answer's timing reveals nothing. */
  sendInBackground(user: UserRecord, purpose: CodePurpose): void {
    this.send(user, purpose).catch((error) => {
      if (!(error instanceof AccountsError)) this.log.error({ err: error, purpose }, 'issuing a code failed');
    });
  }
}
