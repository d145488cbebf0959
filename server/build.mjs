// Bundles the server into dist/main.js, and the history worker's thread (src/history/history.worker.ts)
// into dist/history.worker.js beside it. npm dependencies stay external (native modules such as
// better-sqlite3 must load from node_modules); workspace packages (@hearth/*) are bundled in.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// Kysely is bundled too: pure JavaScript, of which the bundle keeps what Hearth uses. Loaded from
// node_modules it is some 200 ES modules, about 12 MB of memory in each thread that imports it
// (the server's and the history worker's).
const BUNDLED = new Set(['kysely']);
const external = Object.keys(pkg.dependencies ?? {}).filter(
  (name) => !name.startsWith('@hearth/') && !BUNDLED.has(name),
);

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    'history.worker': new URL('./src/history/history.worker.ts', import.meta.url).pathname,
  },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
