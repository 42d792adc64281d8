import { convert, type DomNode, type FormatCallback } from '@convo-kit/emulator/html-to-text';
import { marked } from '@convo-kit/emulator/marked';
import { KNOWLEDGE_FILE_MAX_BYTES } from '../../resources/index.js';
import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** htmlparser2's nodes link their previous sibling; html-to-text's type leaves it out. */
type Sibling = DomNode & { prev?: Sibling | null };

/**
 * A table cell, ` | ` after the row's previous cell: a table reads one line per row, as a CSV or XLSX file
 * does (docs/ai-and-knowledge.md). html-to-text's default runs the cells of `<td>S</td><td>5</td>` together.
 */
const tableCell: FormatCallback = (elem, walk, builder) => {
  let previous = (elem as Sibling).prev;
  while (previous && previous.type !== 'tag') previous = previous.prev;
  if (previous) builder.addInline(' | ');
  walk(elem.children, builder);
};

/**
 * The readable text of an HTML document with html-to-text (htmlparser2): no links, images or scripts;
 * headings keep their case (the default upper-cases them, and a knowledge answer would shout).
 */
export function htmlText(html: string, budget: TextBudget, type = 'HTML'): void {
  let text: string;
  try {
    text = convert(html, {
      wordwrap: false,
      limits: { maxInputLength: KNOWLEDGE_FILE_MAX_BYTES },
      formatters: { tableCell },
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        { selector: 'script', format: 'skip' },
        { selector: 'style', format: 'skip' },
        ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
        { selector: 'table', format: 'block' },
        { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
        { selector: 'td', format: 'tableCell' },
        { selector: 'th', format: 'tableCell' },
      ],
    });
  } catch (error) {
    throw notParsable(type, reasonOf(error));
  }
  for (const paragraph of text.split(/\n{2,}/)) budget.add(paragraph);
}

/** The text of a Markdown document: rendered by marked (CommonMark and GFM), then read as HTML. */
export function markdownText(markdown: string, budget: TextBudget): void {
  let html: string;
  try {
    html = marked.parse(markdown, { async: false, gfm: true });
  } catch (error) {
    throw notParsable('Markdown', reasonOf(error));
  }
  htmlText(html, budget, 'Markdown');
}
