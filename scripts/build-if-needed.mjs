// `npm start` runs this first: it builds the web app and the server only when their output is
// missing or older than their sources, so a fresh clone needs nothing but `npm ci && npm start`.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes('node_modules')) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const contracts = newestMtime(path.join(root, 'packages/contracts/src'));

const targets = [
  {
    workspace: 'web',
    output: path.join(root, 'web/dist/index.html'),
    sources: Math.max(
      contracts,
      newestMtime(path.join(root, 'web/src')),
      mtime(path.join(root, 'web/index.html')),
    ),
  },
  {
    workspace: 'server',
    output: path.join(root, 'server/dist/main.js'),
    sources: Math.max(contracts, newestMtime(path.join(root, 'server/src'))),
  },
];

for (const { workspace, output, sources } of targets) {
  if (mtime(output) >= sources) continue;
  console.log(`Building ${workspace}…`);
  execSync(`npm run build -w ${workspace}`, { cwd: root, stdio: 'inherit' });
}
