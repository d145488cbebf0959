import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import { MailCatcher } from '../../test/mail-catcher.js';
import { waitFor } from '../../test/wait.js';
import { createLogger } from '../logging/logger.js';
import { MailThread } from './mail-thread.js';
import { Mailer } from './mailer.js';
import { codeMail } from './templates.js';

describe('mailer', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mail-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** A mailer without SMTP_URL (it writes to `dir`/outbox), and what it logs. */
  const outboxMailer = (dir: string) => {
    const logs = new LogCapture();
    const mailer = new Mailer({
      smtpUrl: undefined,
      from: 'Hearth <hearth@localhost>',
      dataDir: dir,
      log: createLogger('info', logs),
    });
    return { mailer, logs };
  };

  it('writes an .eml with a text and an HTML part to the outbox and logs no code', async () => {
    const { mailer, logs } = outboxMailer(dataDir);
    await mailer.send(
      'ada@example.com',
      codeMail(
        {
          subject: 'Reset your Hearth password',
          intro: 'Enter this code in Hearth to choose a new password:',
        },
        '493817',
        'https://home.example',
      ),
    );
    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(outbox, files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^To: ada@example\.com$/m);
    expect(eml).toMatch(/^Subject: Reset your Hearth password$/m);
    expect(eml).toContain('text/plain');
    expect(eml).toContain('text/html');
    expect(eml.match(/493817/g)?.length).toBeGreaterThanOrEqual(2);
    expect(logs.text).toContain('mail written to outbox');
    expect(logs.text).toContain('ada@example.com');
    expect(logs.text).not.toContain('493817');
  });

  it('delivers through SMTP_URL in a real SMTP conversation', async () => {
    const catcher = await new MailCatcher().start();
    const mailer = new Mailer({
      smtpUrl: catcher.url,
      from: 'Hearth <hearth@localhost>',
      dataDir,
      log: createLogger('silent'),
    });
    try {
      await mailer.send(
        'bob@example.com',
        codeMail(
          { subject: 'Your Hearth sign-in code', intro: 'Enter this code in Hearth to finish signing in:' },
          '004211',
          'http://localhost:8080',
        ),
      );
      const mail = await catcher.next('bob@example.com', /sign-in code/);
      expect(mail.code).toBe('004211');
      expect(mail.raw).toContain('Hearth');
    } finally {
      mailer.close();
      await catcher.stop();
    }
  });

  it('waits on close a bounded time for a mail that never ends, then says so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mail-close-'));
    const { mailer, logs } = outboxMailer(dir);
    mailer.background(new Promise(() => {}));
    const sent = mailer.send(
      'ada@example.com',
      codeMail({ subject: 'Code', intro: 'Enter:' }, '123456', 'http://x'),
    );
    const started = performance.now();
    await mailer.close(300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    await sent;
    expect(fs.readdirSync(path.join(dir, 'outbox')).filter((file) => file.endsWith('.eml'))).toHaveLength(1);
    expect(logs.text).toContain('mail still being sent at shutdown');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('composes on a thread of its own, which ends once idle and starts again for the next mail', async () => {
    const thread = new MailThread(undefined, 200);
    try {
      expect(thread.running()).toBe(false);
      const mail = { from: 'Hearth <hearth@localhost>', to: 'ada@example.com', subject: 'Leak detected' };
      const sent = await Promise.all(
        Array.from({ length: 5 }, (_, i) => thread.send({ ...mail, text: `Water at sink ${i}` })),
      );
      // The composed messages come back from the thread, each its own.
      expect(sent.map((message) => /Water at sink (\d)/.exec(String(message))?.[1])).toEqual([
        '0',
        '1',
        '2',
        '3',
        '4',
      ]);
      expect(thread.running()).toBe(true);
      await waitFor(() => !thread.running());
      const again = await thread.send({ ...mail, text: 'Water again' });
      expect(String(again)).toMatch(/^Subject: Leak detected$/m);
    } finally {
      thread.close();
    }
  });

  it('escapes HTML in the templates', () => {
    const mail = codeMail(
      { subject: 'Verify <b>', intro: 'Enter <i>this</i>:' },
      '123456',
      'http://x/"><script>',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<i>');
    expect(mail.text).toContain('123456');
  });
});
