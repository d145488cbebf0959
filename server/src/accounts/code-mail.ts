import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import { type CodeMailWording, codeMail, type Mailer } from '../mail/index.js';
import type { UserRecord } from '../users/index.js';
import { MESSAGES } from './accounts.errors.js';
import type { CodePurpose } from './accounts.tables.js';
import type { OneTimeCodes } from './codes.js';

/** What each kind of code mail says around its code. */
export const CODE_MAIL_WORDING: Record<CodePurpose, CodeMailWording> = {
  email_verify: {
    subject: 'Verify your Hearth email address',
    intro: 'Enter this code in Hearth to verify your email address:',
  },
  login_2fa: {
    subject: 'Your Hearth sign-in code',
    intro: 'Enter this code in Hearth to finish signing in:',
  },
  '2fa_setup': {
    subject: 'Turn on two-factor authentication for Hearth',
    intro: 'Enter this code in Hearth to turn on two-factor authentication:',
  },
  password_reset: {
    subject: 'Reset your Hearth password',
    intro: 'Enter this code in Hearth to choose a new password:',
  },
};

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
      await this.mailer.send(user.email, codeMail(CODE_MAIL_WORDING[purpose], code, this.publicUrl));
    } catch (error) {
      this.log.error({ err: error, purpose }, 'sending a code mail failed');
      throw new HttpError(502, MESSAGES.mailFailed);
    }
  }

  /** Issues and sends without the caller waiting, so the answer's timing reveals nothing. */
  sendInBackground(user: UserRecord, purpose: CodePurpose): void {
    this.send(user, purpose).catch((error) => {
      if (!(error instanceof HttpError)) this.log.error({ err: error, purpose }, 'issuing a code failed');
    });
  }
}
