/**
 * Arrays and objects a JSON body may nest, the emulator's own bound (the spec sets none). The deepest body
 * of the contract nests a handful of levels; 5,000 nested arrays made the idempotency hash, which walks the
 * body before it is validated, overflow the stack (a 500, issue 25).
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `maxDepth`, found without recursion. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
