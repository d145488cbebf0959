import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Browser files are the longest (a server and Chromium each) and spend much of their time waiting
 * on the page; server and web files are short and mostly compute. Dealing them out mixed — a
 * browser file, then two others — keeps both cores busy while browser files wait, and starts the
 * longest early. Within each tier Vitest's own order holds (last run's failures, then the slowest).
 */
export class MixedTiersSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter((file) => file.project.name === 'e2e');
    const others = sorted.filter((file) => file.project.name !== 'e2e');
    const mixed: TestSpecification[] = [];
    while (browser.length > 0 || others.length > 0) {
      const next = browser.shift();
      if (next) mixed.push(next);
      mixed.push(...others.splice(0, 2));
    }
    return mixed;
  }
}
