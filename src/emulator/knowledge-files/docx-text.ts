import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** The text of a DOCX, paragraph by paragraph, with mammoth (loaded on first use). Call checkOfficeZip first. */
export async function docxText(bytes: Buffer, budget: TextBudget): Promise<void> {
  const mammoth = (await import('mammoth')).default;
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: bytes }));
  } catch (error) {
    throw notParsable('DOCX', reasonOf(error));
  }
  for (const paragraph of value.split(/\n+/)) budget.add(paragraph);
}
