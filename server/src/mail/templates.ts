export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a code mail says around its code. */
export interface CodeMailWording {
  subject: string;
  intro: string;
}

/** A code mail: plain text and HTML, both naming Hearth and the code. */
export function codeMail({ subject, intro }: CodeMailWording, code: string, publicUrl: string): MailContent {
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

/** What a notice mail (no code) says: a subject and its paragraphs. */
export interface NoticeMailWording {
  subject: string;
  paragraphs: string[];
}

/** A notice to the account's owner (a sign-up attempt with their address, a linked provider). */
export function noticeMail({ subject, paragraphs }: NoticeMailWording, publicUrl: string): MailContent {
  const text = `Hearth\n\n${paragraphs.join('\n\n')}\n\n${publicUrl}\n`;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#1c1c1e">
<h1 style="font-size:20px">Hearth</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a></p>
</body></html>`;
  return { subject, text, html };
}
