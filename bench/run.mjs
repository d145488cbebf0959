// `npm run bench`: runs every bench/*.bench.mjs in order (or those named on the command line),
// each printing its figures as a table and writing them to bench/results/<name>.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const benches = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n### ${file}`);
  const result = spawnSync(process.execPath, [path.join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
