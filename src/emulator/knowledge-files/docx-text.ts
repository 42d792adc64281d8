import type Mammoth from '@convo-kit/emulator/mammoth';
import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** mammoth, loaded on first use (only uploads need it). */
export async function loadMammoth(): Promise<typeof Mammoth> {
  return (await import('@convo-kit/emulator/mammoth')).default;
}

/** The text of a DOCX, paragraph by paragraph, with mammoth. Call checkOfficeZip first. */
export async function docxText(bytes: Buffer, budget: TextBudget): Promise<void> {
  const mammoth = await loadMammoth();
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: bytes }));
  } catch (error) {
    throw notParsable('DOCX', reasonOf(error));
  }
  for (const paragraph of value.split(/\n+/)) budget.add(paragraph);
}
