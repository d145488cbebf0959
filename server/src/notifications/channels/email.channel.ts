import type { Mailer } from '../../mail/index.js';
import { noticeMail } from '../../mail/index.js';
import type { Notice } from '../notice.js';
import { NOTIFICATION_TEXTS as T } from '../notifications.messages.js';
import type { Channel, Delivery, Person } from './channel.js';

/**
 * docs/alerts.md#channels: e-mail through the mailer. Critical incidents go at once to whoever keeps
 * `email` on; the others wait for the hourly digest (`email_digest`, sent by the delivery runner).
 */
export function emailChannel(
  mailer: Mailer,
): Channel & { digest(person: Person, notices: Notice[], url: string): Promise<void> } {
  return {
    name: 'email',
    wants: (delivery: Delivery) => delivery.critical && delivery.preferences.email,
    send: (delivery: Delivery) =>
      mailer.send(
        delivery.person.email,
        noticeMail(
          { subject: delivery.notice.title, paragraphs: [delivery.notice.body, T.mailOpen] },
          delivery.url,
        ),
      ),
    digest: (person, notices, url) =>
      mailer.send(
        person.email,
        noticeMail(
          {
            subject: T.digestSubject(notices.length),
            paragraphs: notices.map((notice) => `${notice.title}: ${notice.body}`),
          },
          url,
        ),
      ),
  };
}
