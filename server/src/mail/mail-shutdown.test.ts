import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountsClient, person } from '../../test/accounts-client.js';
import { startTestApp } from '../../test/app.js';
import { sqliteDatabase } from '../../test/databases.js';

const outboxOf = (dataDir: string) => path.join(dataDir, 'outbox');
const emls = (dataDir: string) =>
  fs.existsSync(outboxOf(dataDir)) ? fs.readdirSync(outboxOf(dataDir)).filter((f) => f.endsWith('.eml')) : [];

describe('mail at shutdown', () => {
  it('a sign-up answered just before a shutdown still has its verification mail in the outbox once the server has closed', async () => {
    const database = sqliteDatabase();
    const { dataDir } = database.appOptions();
    const hearth = await startTestApp(database);
    const grace = person();
    // The mail is sent after the answer (its timing reveals nothing); the server closes right away.
    await new AccountsClient(() => hearth.app).signup(grace);
    await hearth.close();
    const files = emls(dataDir);
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(outboxOf(dataDir), files[0] ?? ''), 'utf8');
    expect(eml).toMatch(new RegExp(`^To: ${grace.email.replaceAll('.', '\\.')}$`, 'm'));
    expect(eml).toMatch(/^Subject: .+$/m);
    // Nothing is written after close: the data directory can go at once.
    await database.drop();
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
