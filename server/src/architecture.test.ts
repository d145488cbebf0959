import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import graph of the repository, checked: which folder may use which (CONTRIBUTING.md).

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverSrc = path.join(repo, 'server/src');

/** Features, each a folder whose public face is its `index.ts`. */
const DOMAINS = [
  'access',
  'accounts',
  'users',
  'devicehub',
  'rooms',
  'mail',
  'health',
  'history',
  'activity',
  'passes',
  'alerts',
  'notifications',
  'push',
  'tokens',
  'scenes',
  'automations',
];

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const SPECIFIERS =
  /(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every relative import of a file, resolved to the file it names. */
function imports(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const edges: Edge[] = [];
  for (const match of text.matchAll(SPECIFIERS)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(file), specifier.replace(/\.js$/, ''));
      const resolved = [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')].find((candidate) =>
        fs.existsSync(candidate),
      );
      edges.push({ from: file, to: resolved ?? target });
    } else if (specifier.startsWith('@hearth/server')) {
      edges.push({ from: file, to: path.join(repo, 'server') });
    }
  }
  return edges;
}

const rel = (file: string) => path.relative(repo, file);
/** The top-level folder of server/src a file belongs to ('' for app.ts, main.ts). */
const area = (file: string) => {
  const inner = path.relative(serverSrc, file);
  return inner.startsWith('..') || !inner.includes(path.sep) ? '' : (inner.split(path.sep)[0] ?? '');
};
const isDomain = (name: string) => DOMAINS.includes(name);

const serverEdges = sourceFiles(serverSrc).flatMap(imports);

describe('the import graph', () => {
  it('lets nothing but main.ts import the composition root', () => {
    const app = path.join(serverSrc, 'app.ts');
    const offenders = serverEdges.filter((e) => e.to === app && rel(e.from) !== 'server/src/main.ts');
    expect(offenders.map((e) => rel(e.from))).toEqual([]);
  });

  it('lets a domain use another only through its index.ts', () => {
    const offenders = serverEdges.filter((e) => {
      const [from, to] = [area(e.from), area(e.to)];
      const user = isDomain(from) || from === '';
      return user && isDomain(to) && to !== from && e.to !== path.join(serverSrc, to, 'index.ts');
    });
    expect(offenders.map((e) => `${rel(e.from)} → ${rel(e.to)}`)).toEqual([]);
  });

  it('keeps the code of the shared layers (http, storage, bus, config, …) free of domains, but for table types', () => {
    // Tests in those layers may drive the whole app; their code may not lean on a domain.
    const offenders = serverEdges.filter(
      (e) =>
        area(e.from) !== '' &&
        !isDomain(area(e.from)) &&
        !e.from.endsWith('.test.ts') &&
        isDomain(area(e.to)) &&
        !e.to.endsWith('.tables.ts'),
    );
    expect(offenders.map((e) => `${rel(e.from)} → ${rel(e.to)}`)).toEqual([]);
  });

  it('has no cycle between domains', () => {
    const uses = new Map<string, Set<string>>(DOMAINS.map((d) => [d, new Set()]));
    for (const e of serverEdges) {
      const [from, to] = [area(e.from), area(e.to)];
      if (isDomain(from) && isDomain(to) && from !== to) uses.get(from)?.add(to);
    }
    const cycles: string[] = [];
    const visit = (domain: string, trail: string[]) => {
      if (trail.includes(domain))
        return cycles.push([...trail.slice(trail.indexOf(domain)), domain].join(' → '));
      for (const next of uses.get(domain) ?? []) visit(next, [...trail, domain]);
    };
    for (const domain of DOMAINS) visit(domain, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the web app and the contracts from importing the server', () => {
    const server = path.join(repo, 'server');
    const web = path.join(repo, 'web');
    const edges = [
      ...sourceFiles(path.join(repo, 'web/src')),
      ...sourceFiles(path.join(repo, 'packages/contracts/src')),
    ].flatMap(imports);
    const offenders = edges.filter(
      (e) =>
        e.to.startsWith(server) ||
        (rel(e.from).startsWith('packages/') && (e.to.startsWith(web) || e.to.startsWith(server))),
    );
    expect(offenders.map((e) => `${rel(e.from)} → ${rel(e.to)}`)).toEqual([]);
  });

  it('keeps the server, its tests included, from importing the web app (shared rules live in the contracts)', () => {
    const web = path.join(repo, 'web');
    // The one cross-check: the web app's control derivation must cover every Zigbee2MQTT expose
    // the adapter translates; the derivation is the web app's own, so the test reads it there.
    const crossCheck = 'server/src/devicehub/adapters/zigbee2mqtt/controls-coverage.test.ts';
    const offenders = serverEdges.filter((e) => e.to.startsWith(web) && rel(e.from) !== crossCheck);
    expect(offenders.map((e) => `${rel(e.from)} → ${rel(e.to)}`)).toEqual([]);
  });
});
