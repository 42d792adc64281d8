import { parse } from '@convo-kit/emulator/csv-parse';
import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** The rows of a CSV or TSV, parsed by csv-parse (quoting and escapes per RFC 4180), cells joined by " | ". */
export function delimitedText(text: string, delimiter: ',' | '\t', budget: TextBudget): void {
  const type = delimiter === ',' ? 'CSV' : 'TSV';
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw notParsable(type, reasonOf(error));
  }
  for (const row of rows) budget.add(row.filter((cell) => cell !== '').join(' | '));
}
