import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import {
  type CodeMailWording,
  codeMail,
  type Mailer,
  type NoticeMailWording,
  noticeMail,
} from '../mail/index.js';
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

/** Someone tried to sign up with an address that already has an account (its owner is told). */
export const SIGNUP_ATTEMPT_NOTICE: NoticeMailWording = {
  subject: 'Someone tried to sign up to Hearth with your address',
  paragraphs: [
    'Someone tried to create a new Hearth account with this email address, which already has an account.',
    'If it was you, sign in instead; if you forgot your password, use “Forgot password?” on the sign-in page.',
    'If it was not you, you can ignore this email: nothing was changed.',
  ],
};

/** An identity provider was connected to the account (Settings → Connect). */
export const identityLinkedNotice = (provider: string, email: string | null): NoticeMailWording => ({
  subject: `${provider} was connected to your Hearth account`,
  paragraphs: [
    `Your Hearth account can now be signed in to with ${provider}${email ? ` (${email})` : ''}.`,
    `If you did not do this, sign in, disconnect ${provider} under Settings → Sign-in methods, and change your password.`,
  ],
});

/** A password reset disconnected the account's identity providers (issue 32 item 12). */
export const providersDisconnectedNotice = (providers: string[]): NoticeMailWording => {
  const names = providers.join(' and ');
  return {
    subject: 'Your Hearth password was reset',
    paragraphs: [
      `Your Hearth password was just reset, and ${names} was disconnected from your account: it no longer signs you in.`,
      `If it was you, sign in with the new password and connect ${names} again under Settings → Sign-in methods.`,
      'If it was not you, someone can read your email: secure your email account, then use “Forgot password?” on the sign-in page.',
    ],
  };
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

  /** Mails a notice without the caller waiting; a failure is only logged. */
  notify(to: string, wording: NoticeMailWording): void {
    this.mailer
      .send(to, noticeMail(wording, this.publicUrl))
      .catch((error) =>
        this.log.error({ err: error, subject: wording.subject }, 'sending a notice mail failed'),
      );
  }

  /** Issues and sends without the caller waiting, so the answer's timing reveals nothing. */
  sendInBackground(user: UserRecord, purpose: CodePurpose): void {
    // The mailer keeps the whole job (the code is issued first), so a shutdown waits for both.
    this.mailer.background(this.send(user, purpose)).catch((error) => {
      if (!(error instanceof HttpError)) this.log.error({ err: error, purpose }, 'issuing a code failed');
    });
  }
}
