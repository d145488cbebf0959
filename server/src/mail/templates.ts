import type { CodePurpose } from '../accounts/accounts.tables.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const WHAT: Record<CodePurpose, { subject: string; intro: string }> = {
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

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A code mail: plain text and HTML, both naming Hearth and the code. */
export function codeMail(purpose: CodePurpose, code: string, publicUrl: string): MailContent {
  const { subject, intro } = WHAT[purpose];
  const footer = `The code expires in 10 minutes. If you did not ask for it, you can ignore this email.`;
  const text = `Hearth\n\n${intro}\n\n    ${code}\n\n${footer}\n\n${publicUrl}\n`;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#1c1c1e">
<h1 style="font-size:20px">Hearth</h1>
<p>${escapeHtml(intro)}</p>
<p style="font-size:28px;font-weight:600;letter-spacing:6px">${escapeHtml(code)}</p>
<p style="color:#6e6e73">${escapeHtml(footer)}</p>
<p><a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a></p>
</body></html>`;
  return { subject, text, html };
}
