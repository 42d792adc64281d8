import { z } from 'zod';
import { Id, Timestamp, visibleText } from './common.js';

export const KnowledgeType = z.enum(['general', 'faq', 'policy', 'product']);

/** Extracted text of one entry (spec, Limits). */
export const KNOWLEDGE_TEXT_MAX_CHARS = 100_000;
/** One uploaded file (spec, Limits: 10 MiB). */
export const KNOWLEDGE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** One entry of a DOCX or XLSX (a zip), inflated (spec, Limits: 20 MiB). */
export const KNOWLEDGE_OFFICE_ENTRY_MAX_BYTES = 20 * 1024 * 1024;
/** All entries of a DOCX or XLSX together, inflated (spec, Limits: 50 MiB). */
export const KNOWLEDGE_OFFICE_EXPANDED_MAX_BYTES = 50 * 1024 * 1024;
/** Rows and columns of one XLSX sheet (spec, Limits: 5,000 × 100). */
export const KNOWLEDGE_XLSX_MAX_ROWS = 5_000;
export const KNOWLEDGE_XLSX_MAX_COLUMNS = 100;
/** The file types the upload accepts (spec, Limits), by extension. */
export const KNOWLEDGE_FILE_EXTENSIONS = [
  'txt',
  'md',
  'csv',
  'tsv',
  'json',
  'html',
  'htm',
  'pdf',
  'docx',
  'xlsx',
] as const;

export const KnowledgeEntry = z.looseObject({
  entry_id: z.string(),
  group_id: z.string(),
  type: KnowledgeType,
  title: z.string(),
  content: z.string(),
  /** `upload` entries keep the file name; their source bytes are not retained. */
  source: z.enum(['api', 'upload']),
  filename: z.string().nullable(),
  created_at: Timestamp,
});
export type KnowledgeEntry = z.output<typeof KnowledgeEntry>;

/** Blanks alone are refused, as an uploaded file with no text is. */
export const KnowledgeCreate = z.strictObject({
  type: KnowledgeType,
  title: visibleText(200),
  content: visibleText(KNOWLEDGE_TEXT_MAX_CHARS),
});

/** The lower-case extension of a file name (`Report.PDF` -> `pdf`; `README` -> ''). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Longest file name an upload keeps (`filename` of the entry). */
export const KNOWLEDGE_FILE_NAME_MAX_CHARS = 255;

/** A knowledge file: at most 10 MiB, one of the listed types (by file name). */
export const KnowledgeFile = z
  .file()
  .min(1)
  .max(KNOWLEDGE_FILE_MAX_BYTES)
  .refine((file) => file.name.length <= KNOWLEDGE_FILE_NAME_MAX_CHARS, {
    message: `expected a file name of at most ${KNOWLEDGE_FILE_NAME_MAX_CHARS} characters`,
  })
  .refine((file) => (KNOWLEDGE_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)), {
    message: `expected a file named *.${KNOWLEDGE_FILE_EXTENSIONS.join(', *.')}`,
    // A server answers 415 UNSUPPORTED_MEDIA_TYPE for it, not 400.
    params: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  });

/** Multipart form fields of the upload route. */
export const KnowledgeUpload = z.strictObject({
  type: KnowledgeType,
  title: visibleText(200),
  file: KnowledgeFile,
});

/** Path params of one knowledge entry of a group. */
export const KnowledgeEntryParams = z.object({ group_id: Id, entry_id: Id });
