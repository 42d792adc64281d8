import { extensionOf } from '../../api/schemas/knowledge-entry.js';
import { type KNOWLEDGE_FILE_EXTENSIONS } from '../../resources/index.js';
import { delimitedText } from './delimited-text.js';
import { docxText, loadMammoth } from './docx-text.js';
import { jsonText } from './json-text.js';
import { htmlText, markdownText } from './markup-text.js';
import { checkOfficeZip } from './office-zip.js';
import { loadExcelJs, xlsxText } from './xlsx-text.js';
import { loadPdfJs, pdfText } from './pdf-text.js';
import { notParsable } from './refusals.js';
import { TextBudget } from './text-budget.js';
import { decodeUtf8 } from './utf8-text.js';

type Extension = (typeof KNOWLEDGE_FILE_EXTENSIONS)[number];

/** How each listed type is read; every one has a real parser of its own (docs/ai-and-knowledge.md). */
interface Reader {
  type: string;
  read(bytes: Buffer, budget: TextBudget): void | Promise<void>;
  /** Loads the reader's parser when it is loaded on first use (a large one only uploads need). */
  load?(): Promise<unknown>;
}

const READERS: Record<Extension, Reader> = {
  txt: { type: 'text file', read: (bytes, budget) => budget.add(decodeUtf8(bytes, 'text file')) },
  md: { type: 'Markdown', read: (bytes, budget) => markdownText(decodeUtf8(bytes, 'Markdown'), budget) },
  csv: { type: 'CSV', read: (bytes, budget) => delimitedText(decodeUtf8(bytes, 'CSV'), ',', budget) },
  tsv: { type: 'TSV', read: (bytes, budget) => delimitedText(decodeUtf8(bytes, 'TSV'), '\t', budget) },
  json: { type: 'JSON', read: (bytes, budget) => jsonText(decodeUtf8(bytes, 'JSON'), budget) },
  html: { type: 'HTML', read: (bytes, budget) => htmlText(decodeUtf8(bytes, 'HTML'), budget) },
  htm: { type: 'HTML', read: (bytes, budget) => htmlText(decodeUtf8(bytes, 'HTML'), budget) },
  pdf: { type: 'PDF', read: pdfText, load: loadPdfJs },
  docx: {
    type: 'DOCX',
    read: async (bytes, budget) => {
      await checkOfficeZip(bytes, 'DOCX');
      await docxText(bytes, budget);
    },
    load: loadMammoth,
  },
  xlsx: {
    type: 'XLSX',
    read: async (bytes, budget) => {
      await checkOfficeZip(bytes, 'XLSX');
      await xlsxText(bytes, budget);
    },
    load: loadExcelJs,
  },
};

const readerOf = (fileName: string) => (READERS as Partial<Record<string, Reader>>)[extensionOf(fileName)];

/** Loads the parser `fileName`'s type needs, if it is one loaded on first use: before a parse's clock starts. */
export async function loadReaderOf(fileName: string): Promise<void> {
  await readerOf(fileName)?.load?.();
}

/**
 * The text of an uploaded knowledge file, parsed in memory by the parser of its type (by file name).
 * Over a Limits bound: 413 naming it. Not one of the listed types, not parsable as its type, or without
 * any text: 415. The bytes are only read here; nothing of them is kept.
 */
export async function extractText(fileName: string, bytes: Buffer): Promise<string> {
  const reader = readerOf(fileName);
  if (!reader) throw notParsable('knowledge file', `${JSON.stringify(fileName)} is not one of the listed types`);
  const budget = new TextBudget();
  await reader.read(bytes, budget);
  const text = budget.text();
  if (text === '') throw notParsable(reader.type, 'it contains no text to extract');
  return text;
}
