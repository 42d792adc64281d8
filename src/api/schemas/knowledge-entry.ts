import { z } from 'zod';
import { Timestamp } from '../../resources/common.js';
import { text } from './common.js';

export const KnowledgeType = z.enum(['general', 'faq', 'policy', 'product']);

/** Extracted text of one entry (spec, Limits). */
export const KNOWLEDGE_TEXT_MAX_CHARS = 100_000;
/** One uploaded file (spec, Limits: 10 MiB). */
export const KNOWLEDGE_FILE_MAX_BYTES = 10 * 1024 * 1024;
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

export const KnowledgeCreate = z.strictObject({
  type: KnowledgeType,
  title: text(200),
  content: text(KNOWLEDGE_TEXT_MAX_CHARS),
});

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();

/** A knowledge file: at most 10 MiB, one of the listed types (by file name). */
export const KnowledgeFile = z
  .file()
  .min(1)
  .max(KNOWLEDGE_FILE_MAX_BYTES)
  .refine((file) => (KNOWLEDGE_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)), {
    message: `expected a file named *.${KNOWLEDGE_FILE_EXTENSIONS.join(', *.')}`,
  });

/** Multipart form fields of the upload route. */
export const KnowledgeUpload = z.strictObject({
  type: KnowledgeType,
  title: text(200),
  file: KnowledgeFile,
});
