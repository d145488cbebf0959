// Checks that the reference stays navigable: every link between the docs, and every
// `docs/<file>.md#<anchor>` cited anywhere in the repository, points at a file and a heading
// that exist, and that nothing cites SPEC sections any more. Run: node docs/check-links.mjs (exit
// code 1 and one line per problem); `npm run check` runs it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const docsDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(docsDir);
const SCANNED = ['server', 'web', 'packages', 'e2e', 'bench', 'scripts', 'README.md', 'CONTRIBUTING.md'];
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'results', '.git']);
const SOURCE = /\.(ts|tsx|mjs|js|css|md)$/;

/** GitHub's heading ids: lower case, punctuation dropped, spaces to "-", repeats numbered. */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map();
function anchorsIn(file) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(file, 'utf8')));
  return anchorCache.get(file);
}

function* filesUnder(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    yield full;
    return;
  }
  for (const child of fs.readdirSync(full, { withFileTypes: true })) {
    if (SKIPPED.has(child.name)) continue;
    const relative = path.join(entry, child.name);
    if (child.isDirectory()) yield* filesUnder(relative);
    else if (SOURCE.test(child.name)) yield path.join(root, relative);
  }
}

const problems = [];
const where = (file, index, text) =>
  `${path.relative(root, file)}:${text.slice(0, index).split('\n').length}`;

function check(from, target, place) {
  const [filePart, anchor] = target.split('#');
  const file = filePart ? path.resolve(path.dirname(from), filePart) : from;
  if (!fs.existsSync(file)) return problems.push(`${place}: no file ${target}`);
  if (anchor && file.endsWith('.md') && !anchorsIn(file).has(anchor)) {
    problems.push(`${place}: no heading #${anchor} in ${path.relative(root, file)}`);
  }
}

// Links inside the docs (relative files and #anchors).
for (const name of fs.readdirSync(docsDir).filter((n) => n.endsWith('.md'))) {
  const file = path.join(docsDir, name);
  const text = fs.readFileSync(file, 'utf8');
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1];
    if (/^[a-z]+:/.test(target)) continue;
    check(file, target, where(file, match.index, text));
  }
}

// Citations of the docs from the code and the other documents.
for (const entry of SCANNED) {
  for (const file of filesUnder(entry)) {
    const text = fs.readFileSync(file, 'utf8');
    // The spec the product was first built from is not in the repository: cite docs/ instead.
    for (const match of text.matchAll(/\bSPEC(?:'s)?(?: sections?)? \d/g)) {
      problems.push(`${where(file, match.index, text)}: cites a SPEC section; cite docs/ instead`);
    }
    for (const match of text.matchAll(/docs\/([\w-]+\.md)(#[\w-]+)?/g)) {
      check(
        path.join(root, 'README.md'),
        `docs/${match[1]}${match[2] ?? ''}`,
        where(file, match.index, text),
      );
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log('docs links: all good');
