import { convert } from 'html-to-text';
import { marked } from 'marked';
import { KNOWLEDGE_FILE_MAX_BYTES } from '../../api/index.js';
import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** The readable text of an HTML document with html-to-text (htmlparser2): no links, images or scripts. */
export function htmlText(html: string, budget: TextBudget, type = 'HTML'): void {
  let text: string;
  try {
    text = convert(html, {
      wordwrap: false,
      limits: { maxInputLength: KNOWLEDGE_FILE_MAX_BYTES },
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        { selector: 'script', format: 'skip' },
        { selector: 'style', format: 'skip' },
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
