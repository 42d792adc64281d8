/**
 * Applies the defined fields of `patch` to `doc` and names the ones whose value really changed,
 * so an update that changes nothing bumps no version and announces nothing.
 */
export function applyPatch<T extends object>(doc: T, patch: Partial<T>): { next: T; changed: (keyof T & string)[] } {
  const next = { ...doc };
  const changed: (keyof T & string)[] = [];
  for (const key of Object.keys(patch) as (keyof T & string)[]) {
    const value = patch[key];
    if (value === undefined) continue;
    if (JSON.stringify(value) === JSON.stringify(doc[key])) continue;
    next[key] = value as T[keyof T & string];
    changed.push(key);
  }
  return { next, changed };
}
