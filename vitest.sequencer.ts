import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The tiers in the order they are dealt out: browser files first (the longest), then server, then web. */
const TIERS = ['e2e', 'server', 'web'];

/**
 * Deals the files out a tier at a time. Vitest keeps a worker (its process, the modules it has
 * imported, the e2e tier's Chromium) for the next file only when that file is of the same project;
 * mixing the tiers made nearly every file start a new process and import everything again.
 * Within a tier Vitest's own order holds (last run's failures, then the slowest).
 */
export class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = TIERS.indexOf(file.project.name);
      return index === -1 ? TIERS.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
