import { ApiFailure } from '../api-failure.js';
import { notParsable, reasonOf } from './refusals.js';
import type { TextBudget } from './text-budget.js';

/** PDF.js and its worker code, loaded on first use: they are large and only uploads need them. */
export async function loadPdfJs() {
  const [pdfjs] = await Promise.all([import('@convo-kit/emulator/pdfjs'), import('@convo-kit/emulator/pdfjs-worker')]);
  return pdfjs;
}

/**
 * The text of a PDF, page by page, with Mozilla's PDF.js (pdfjs-dist, the parser browsers use). Scripting,
 * eval and font loading stay off: only text is read. Stops at the page where the text passes its bound.
 */
export async function pdfText(bytes: Buffer, budget: TextBudget): Promise<void> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy();
    throw notParsable('PDF', reasonOf(error));
  }
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      budget.add(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      page.cleanup();
    }
  } catch (error) {
    throw error instanceof ApiFailure ? error : notParsable('PDF', reasonOf(error));
  } finally {
    await doc.destroy();
  }
}
