import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/**
 * The text of a JSON document: one `path: value` line per string, number or boolean, walked with an
 * explicit stack (deep nesting cannot overflow it) and stopped by the text bound.
 */
export function jsonText(text: string, budget: TextBudget): void {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw notParsable('JSON', reasonOf(error));
  }
  const stack: [string, unknown][] = [['', root]];
  while (stack.length > 0) {
    const [path, value] = stack.pop()!;
    if (value !== null && typeof value === 'object') {
      const children = Object.entries(value);
      // Pushed in reverse, so the document reads in order.
      for (let i = children.length - 1; i >= 0; i--) {
        const [key, child] = children[i]!;
        stack.push([Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key, child]);
      }
    } else if (value !== null) {
      budget.add(path ? `${path}: ${String(value)}` : String(value));
    }
  }
}
