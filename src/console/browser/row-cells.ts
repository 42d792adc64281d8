/**
 * A table row as data, drawn by one renderer on each side: as HTML by the server (the inspector's first page,
 * page-html.ts) and as DOM by the pages' scripts (dom.ts), so the two cannot drift apart. Text only: a cell
 * never carries markup, whatever a delivery or a customer put in it.
 */
export type Cell =
  | {
      text: string;
      className?: string;
      /** An ISO time the text shows: the page writes it in the reader's zone and keeps "ago" current. */
      at?: string;
      /** Characters after which the text may break (an event name's dots), instead of anywhere. */
      breakAfter?: string;
    }
  | { pick: { value: string; label: string } };

/**
 * The longest run a cell keeps unbroken when it has break points (a 200-character event name with no dot in
 * it still fits its column): longer than any event name's part in the catalog.
 */
const MAX_UNBROKEN_CHARS = 24;

/** The text cut after each break character, and every MAX_UNBROKEN_CHARS within a longer part. */
export function textPieces(text: string, breakAfter: string | undefined): string[] {
  if (!breakAfter) return [text];
  const pieces: string[] = [];
  let piece = '';
  for (const char of text) {
    piece += char;
    if (breakAfter.includes(char) || piece.length >= MAX_UNBROKEN_CHARS) {
      pieces.push(piece);
      piece = '';
    }
  }
  if (piece) pieces.push(piece);
  return pieces;
}
