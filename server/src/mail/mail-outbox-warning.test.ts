import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { LOCAL_OUTBOX_WARNING } from './mailer.js';

describe.each(testDatabases())('mail without SMTP_URL on $name', ({ name, create }) => {
  const t = useTestApp({ database: create });

  it(
    name === 'postgres'
      ? "warns at start that mail stays in this instance's outbox (several instances need SMTP_URL)"
      : 'starts without a warning (one instance, one outbox)',
    () => {
      const warned = t.hearth.logs.lines.filter((line) => line.includes(LOCAL_OUTBOX_WARNING));
      expect(warned).toHaveLength(name === 'postgres' ? 1 : 0);
      if (name === 'postgres') expect(JSON.parse(warned[0]!).level).toBe(40);
    },
  );
});

describe.each(testDatabases())('mail with SMTP_URL on $name', ({ create }) => {
  const t = useTestApp({ database: create, mail: true });

  it('starts without the outbox warning', () => {
    expect(t.hearth.logs.text).not.toContain(LOCAL_OUTBOX_WARNING);
  });
});
