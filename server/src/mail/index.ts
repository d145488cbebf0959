// The mail domain as other domains and app.ts see it.
export { Mailer, type MailerOptions } from './mailer.js';
export {
  type CodeMailWording,
  codeMail,
  type MailContent,
  type NoticeMailWording,
  noticeMail,
} from './templates.js';
