import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared corpus of real messages (`../shared/sources` beside the repository; CI has it), for
 * tests that check the adapter against what real producers send. Undefined when it is not there.
 */
export function corpusFile(relative: string): string | undefined {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../shared/sources');
  const file = path.join(root, relative);
  return fs.existsSync(file) ? file : undefined;
}
