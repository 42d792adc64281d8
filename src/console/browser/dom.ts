import { textPieces, type Cell } from './row-cells.js';

/** The element with this id, of this type; a page without it is a bug of the page, said at once. */
export function $<T extends HTMLElement = HTMLElement>(id: string, type?: abstract new () => T): T {
  const element = document.getElementById(id);
  if (!element || (type && !(element instanceof type))) throw new Error(`The page has no #${id} of the expected kind`);
  return element as T;
}

/** The data the server wrote into the page (page-shell.ts, a non-executable JSON block); its shape is the page's. */
export function pageData<T>(): T {
  return JSON.parse($('page-data').textContent ?? 'null') as T;
}

/** The notice line: a message, an error (coloured), or nothing (hidden). */
export function notice(text: string, isError = false): void {
  const line = $('notice');
  line.hidden = !text;
  line.textContent = text;
  line.classList.toggle('error', isError);
}

/** A failed request: `status` 0 when nothing answered. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The message of anything thrown, for the notice line. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** fetch and the answer's JSON; no answer at all, or one that is not JSON, is said in words (not 'Failed to fetch'). */
export async function fetchJson(
  url: string,
  init: RequestInit | undefined,
  server: string,
): Promise<{ response: Response; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new RequestError(`${server} did not answer (is it still running?)`, 0);
  }
  const text = await response.text();
  try {
    return { response, body: text ? (JSON.parse(text) as unknown) : {} };
  } catch {
    throw new RequestError(`${server} answered HTTP ${response.status}, not JSON`, response.status);
  }
}

/** The error envelope's code and message (`{ error: { code, message } }`), if the body is one. */
export function errorEnvelope(body: unknown): { code: string; message: string } | undefined {
  if (body === null || typeof body !== 'object' || !('error' in body)) return undefined;
  const { error } = body;
  if (error === null || typeof error !== 'object') return undefined;
  return {
    code: 'code' in error ? String(error.code) : 'ERROR',
    message: 'message' in error ? String(error.message) : '',
  };
}

// In the reader's zone, named, and the month by name: 03/04/2026 is 3 April to some readers and 4 March to others.
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });
export const localTime = (date: Date) => TIME_FORMAT.format(date);

/** An ISO time in the reader's zone and how long ago it was: "28 Nov 2026, 05:06:47 UTC (3 s ago)". */
export function when(iso: string): string {
  const date = new Date(iso);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  const ago =
    seconds < 0
      ? 'in the future'
      : seconds < 60
        ? `${seconds} s ago`
        : seconds < 3600
          ? `${Math.round(seconds / 60)} min ago`
          : seconds < 86400
            ? `${Math.round(seconds / 3600)} h ago`
            : `${Math.round(seconds / 86400)} d ago`;
  return `${localTime(date)} (${ago})`;
}

/** Every time on the page (`data-at`) written again, as "ago" moves on. */
export function retime(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-at]')) {
    const shown = element.dataset.at ? when(element.dataset.at) : undefined;
    if (shown !== undefined && element.textContent !== shown) element.textContent = shown;
  }
}

/** Writes a cell's content: its text in pieces with a break opportunity after each, never as markup. */
export function fillCell(td: HTMLTableCellElement, cell: Cell): void {
  if ('pick' in cell) return;
  // Only what changed is written: a refresh fills hundreds of rows in place every two seconds.
  const className = cell.className ?? '';
  if (td.className !== className) td.className = className;
  if (cell.at !== undefined) {
    const shown = when(cell.at);
    if (td.dataset.at !== cell.at) {
      td.dataset.at = cell.at;
      td.title = cell.at;
    }
    if (td.textContent !== shown) td.textContent = shown;
    return;
  }
  const pieces = textPieces(cell.text, cell.breakAfter);
  if (td.textContent === cell.text && td.childNodes.length === pieces.length * 2 - 1) return;
  td.replaceChildren(...pieces.flatMap((piece, i) => (i === 0 ? [piece] : [document.createElement('wbr'), piece])));
}

/** The one DOM renderer of a row's cells (row-cells.ts; the server draws the same cells as HTML). */
export function rowElement(cells: readonly Cell[], id: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.id = id;
  for (const cell of cells) {
    const td = document.createElement('td');
    if ('pick' in cell) {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'pick';
      box.value = cell.pick.value;
      box.setAttribute('aria-label', cell.pick.label);
      td.append(box);
    } else fillCell(td, cell);
    tr.append(td);
  }
  return tr;
}

/** Fills a drawn row in place with new cells (a pick box, and so focus and its tick, stays). */
export function refillRow(tr: HTMLTableRowElement, cells: readonly Cell[]): void {
  cells.forEach((cell, i) => {
    const td = tr.cells[i];
    if (td) fillCell(td, cell);
  });
}
