/**
 * docs/history.md#gaps: entries and gap markers in time order, fed a page of entries at a time
 * (oldest first, as the pages of a query come). A gap goes after the last entry before or at its
 * time; several gaps with no entry between them count once; a gap before the first entry is not
 * answered. Each gap is read once, however the entries come.
 */
export class GapMerge<T extends { t: number }> {
  private g = 0;
  private last: T | undefined;

  constructor(
    private readonly gaps: readonly number[],
    private readonly gap: (t: number) => T,
  ) {}

  /** The next entries, with the markers of the gaps before each. */
  add(entries: readonly T[]): T[] {
    const { gaps } = this;
    if (gaps.length === 0) {
      this.last = entries.at(-1) ?? this.last;
      return [...entries];
    }
    const out: T[] = [];
    for (const entry of entries) {
      // The first of the gaps since the last entry; the others in the same run are passed over.
      let first: number | undefined;
      for (; this.g < gaps.length; this.g++) {
        const t = gaps[this.g]!;
        if (t >= entry.t) break;
        first ??= t;
      }
      if (first !== undefined && this.last) out.push(this.gap(Math.max(first, this.last.t)));
      out.push(entry);
      this.last = entry;
    }
    return out;
  }

  /** The marker of the gaps after the last entry, if any. */
  finish(): T[] {
    const { gaps, last } = this;
    return this.g < gaps.length && last ? [this.gap(Math.max(gaps[this.g]!, last.t))] : [];
  }
}

/** All entries at once, with their gap markers (GapMerge). */
export function withGaps<T extends { t: number }>(
  entries: readonly T[],
  gaps: readonly number[],
  gap: (t: number) => T,
): T[] {
  const merge = new GapMerge(gaps, gap);
  return [...merge.add(entries), ...merge.finish()];
}
