/**
 * docs/history.md#gaps: entries and gap markers in time order. A gap goes after the last entry
 * before or at its time; several gaps with no entry between them count once; a gap before the
 * first entry is not answered. One pass over each list: every gap is read once.
 */
export function withGaps<T extends { t: number }>(
  entries: readonly T[],
  gaps: readonly number[],
  gap: (t: number) => T,
): T[] {
  if (gaps.length === 0) return [...entries];
  const out: T[] = [];
  let g = 0;
  for (const entry of entries) {
    // The first of the gaps since the last entry; the others in the same run are passed over.
    let first: number | undefined;
    for (; g < gaps.length; g++) {
      const t = gaps[g]!;
      if (t >= entry.t) break;
      first ??= t;
    }
    const last = out.at(-1);
    if (first !== undefined && last) out.push(gap(Math.max(first, last.t)));
    out.push(entry);
  }
  const last = out.at(-1);
  if (g < gaps.length && last) out.push(gap(Math.max(gaps[g]!, last.t)));
  return out;
}
