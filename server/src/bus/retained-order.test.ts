import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// bus/retained-order.ts patches Aedes' internals (upstream: https://github.com/moscajs/aedes/issues/994,
// "qos2 message lost when followed by a qos0 message": packets overtaking one another between
// numbering and delivery are dropped as duplicates). These are the lines it relies on; an upgrade
// that changes any of them must be checked against the patch (and the patch dropped once fixed).

const require = createRequire(import.meta.url);
const aedesMain = require.resolve('aedes');
const persistenceMain = require.resolve('aedes-persistence', { paths: [path.dirname(aedesMain)] });

const PATCHED = [
  // Publishing stores a retained packet first and waits for the promise before emitting it.
  {
    file: aedesMain,
    from: 'function storeRetained (packet, done) {',
    to: 'function emitPacket',
    sha256: '5850a9c6f7ad47d720d4fdaaac4c8bcf99062454a22085b1dfefd63290820034',
  },
  {
    file: aedesMain,
    from: 'const publishFuncsSimple = [',
    to: 'async function closeClient',
    sha256: 'f92f06dcfa9dfa3bec6df4089c5583be0c7256cc97cb1c4abcdf33ff4b666ba8',
  },
  // The default persistence hands the promise of its async store back when called without a callback…
  {
    file: path.join(path.dirname(persistenceMain), 'callBackPersistence.js'),
    from: '  storeRetained (packet, cb) {',
    to: '  createRetainedStream (pattern) {',
    sha256: '616d3066af6d3cc562fb7d9ed6653e941e1c5833bfcdeb9e0d416f2458056d5f',
  },
  // …and that store completes synchronously, inside its async method.
  {
    file: path.join(path.dirname(persistenceMain), 'asyncPersistence.js'),
    from: '  async storeRetained (pkt) {',
    to: '  createRetainedStreamCombi',
    sha256: '9ed7b68edd55d3fa3b26fd55fd13a1f1f00e9f52eaffa8c76c3b93ab846a7d9d',
  },
];

const excerpt = (file: string, from: string, to: string) => {
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(from);
  const end = text.indexOf(to, start);
  if (start < 0 || end < 0) return `missing: ${from}`;
  return text.slice(start, end);
};
const version = (main: string) =>
  JSON.parse(fs.readFileSync(path.join(path.dirname(main), 'package.json'), 'utf8')).version;

describe('the Aedes internals bus/retained-order.ts patches', () => {
  it('are those of the pinned versions', () => {
    expect(version(aedesMain)).toBe('1.2.0');
    expect(version(persistenceMain)).toBe('11.0.0');
  });

  it.each(PATCHED)('are unchanged in $from', ({ file, from, to, sha256 }) => {
    const digest = createHash('sha256')
      .update(excerpt(file, from, to))
      .digest('hex');
    expect(digest, `${path.basename(file)} changed: check bus/retained-order.ts against it`).toBe(sha256);
  });
});
