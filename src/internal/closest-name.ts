/** A name is compared without case, `_` or `-`: `journeyId` and `Journey-ID` both find `journey_id`. */
const normalize = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** At most this many edits away, and fewer than half the name's letters: `id` never "means" `to`. */
const MAX_EDITS = 2;

/** Optimal string alignment distance: an insertion, deletion, substitution or swap of neighbours is one edit each. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    const above = rows[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The declared name `name` was most likely meant to be (a typo, other case, camelCase for snake_case),
 * or undefined when none is close. The first declared name wins a tie.
 */
export function closestName(name: string, declared: readonly string[]): string | undefined {
  const wanted = normalize(name);
  let best: { name: string; edits: number } | undefined;
  for (const candidate of declared) {
    const other = normalize(candidate);
    // Names further apart in length than MAX_EDITS cannot be close; skipping them also bounds the work for a long name.
    if (Math.abs(other.length - wanted.length) > MAX_EDITS) continue;
    const edits = editDistance(wanted, other);
    if (edits <= MAX_EDITS && edits * 2 < Math.max(wanted.length, other.length) && (!best || edits < best.edits))
      best = { name: candidate, edits };
  }
  return best?.name;
}
