import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The URL a script's `import` names a server source file by (`src/...`). */
export const sourceUrl = (file: string) =>
  pathToFileURL(path.join(import.meta.dirname, '..', 'src', file)).href;

/**
 * Runs `source` as a script of its own (an ES module, TypeScript through tsx) in a fresh Node
 * process, with a fresh folder of its own as process.argv[2] (removed afterwards): for what only
 * shows when nothing else keeps a process alive, which a test inside Vitest's process cannot see.
 */
export function runScript(source: string): { status: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-script-'));
  try {
    const script = path.join(dir, 'script.mts');
    fs.writeFileSync(script, source);
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, dir], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, out: run.stdout.trim() };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
