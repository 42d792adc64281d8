import { textPieces, type Cell } from './browser/row-cells.js';
import { html, raw, type SafeHtml } from './html.js';

const WBR = raw('<wbr />');

/**
 * The server's renderer of a row's cells: the same cells, drawn as the browser's `rowElement` draws them
 * (browser/dom.ts), so a page's first rows and the rows its script draws later agree. The row can take focus
 * (the inspector's list is walked with the arrow keys).
 */
export function rowHtml(cells: readonly Cell[], id: string): SafeHtml {
  const cell = (c: Cell) => {
    if ('pick' in c) {
      return html`<td><input type="checkbox" class="pick" value="${c.pick.value}" aria-label="${c.pick.label}" /></td>`;
    }
    const pieces = textPieces(c.text, c.breakAfter).map((piece, i) => (i === 0 ? [piece] : [WBR, piece]));
    const at = c.at === undefined ? '' : html` data-at="${c.at}" title="${c.at}"`;
    return html`<td class="${c.className ?? ''}" ${at}>${pieces}</td>`;
  };
  return html`<tr data-id="${id}" tabindex="0">
    ${cells.map(cell)}
  </tr>`;
}
