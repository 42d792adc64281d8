import { KNOWLEDGE_TEXT_MAX_CHARS } from '../../resources/index.js';
import { overBound } from './refusals.js';

/**
 * Collects the text extracted from a file and refuses it (413) as soon as it passes the Limits bound of
 * 100,000 characters, so that a parser walking pages or rows stops there instead of reading on.
 */
export class TextBudget {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly max = KNOWLEDGE_TEXT_MAX_CHARS) {}

  /** Adds one piece (a page, a row, a paragraph); pieces are joined by a newline. */
  add(piece: string): void {
    const text = piece.trim();
    if (text === '') return;
    this.length += text.length + (this.parts.length > 0 ? 1 : 0);
    if (this.length > this.max) {
      throw overBound(
        `extracted text at most ${this.max.toLocaleString('en-US')} characters`,
        'The text extracted from the file is longer than the bound',
      );
    }
    this.parts.push(text);
  }

  text(): string {
    return this.parts.join('\n');
  }
}
