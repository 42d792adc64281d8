import yauzl from '@convo-kit/emulator/yauzl';
import {
  KNOWLEDGE_OFFICE_ENTRY_MAX_BYTES as ENTRY_MAX,
  KNOWLEDGE_OFFICE_EXPANDED_MAX_BYTES as EXPANDED_MAX,
} from '../../resources/index.js';
import { MIB } from './parse-bounds.js';
import { notParsable, overBound, reasonOf } from './refusals.js';

/** Entries a DOCX or XLSX may list: real documents have dozens; a central directory of millions is an attack. */
export const OFFICE_MAX_ENTRIES = 10_000;

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (error, zip) =>
      error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip),
    ),
  );
}

/** Every entry of the central directory, read without inflating anything. */
function centralDirectory(zip: yauzl.ZipFile, type: string): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let expanded = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.uncompressedSize > ENTRY_MAX) {
        return reject(
          overBound('Office entries at most 20 MiB each', `The entry ${entry.fileName} expands to more than 20 MiB`),
        );
      }
      expanded += entry.uncompressedSize;
      if (expanded > EXPANDED_MAX) {
        return reject(
          overBound(
            'Office files at most 50 MiB expanded',
            `The ${type} expands to more than ${EXPANDED_MAX / MIB} MiB`,
          ),
        );
      }
      if ((entry.generalPurposeBitFlag & 0x1) !== 0) {
        return reject(notParsable(type, `the entry ${entry.fileName} is encrypted`));
      }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        return reject(notParsable(type, `the entry ${entry.fileName} uses an unknown compression method`));
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: unknown) => reject(notParsable(type, reasonOf(error))));
    zip.readEntry();
  });
}

/** Inflates one entry into nothing, only to prove it is no larger than the central directory says. */
function inflatesAsDeclared(zip: yauzl.ZipFile, entry: yauzl.Entry, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(notParsable(type, reasonOf(error)));
      stream.on('data', () => undefined);
      stream.once('end', () => resolve());
      // yauzl stops a stream at the first byte past the declared size ("too many bytes in the stream").
      stream.once('error', (streamError: unknown) =>
        reject(
          /too many bytes/i.test(reasonOf(streamError))
            ? overBound(
                'Office entries at most 20 MiB each and 50 MiB expanded',
                `The entry ${entry.fileName} expands past the size its central directory declares`,
              )
            : notParsable(type, reasonOf(streamError)),
        ),
      );
    });
  });
}

/**
 * Refuses a DOCX or XLSX that would expand past the Limits (20 MiB an entry, 50 MiB in all) from its
 * central directory alone, before anything is inflated: a zip bomb costs a read of its directory. Then
 * it proves each entry inflates to no more than declared (streamed, discarded, stopped at the first byte
 * over), so that the document parser, which trusts the directory, inflates at most those 50 MiB.
 * A file that is no zip, or an encrypted one, is 415.
 */
export async function checkOfficeZip(bytes: Buffer, type: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(bytes);
  } catch (error) {
    throw notParsable(type, `it is not a zip package (${reasonOf(error)})`);
  }
  try {
    if (zip.entryCount > OFFICE_MAX_ENTRIES) {
      throw overBound(
        `Office files at most ${OFFICE_MAX_ENTRIES.toLocaleString('en-US')} entries`,
        `The ${type} lists ${zip.entryCount} entries`,
      );
    }
    const entries = await centralDirectory(zip, type);
    for (const entry of entries) await inflatesAsDeclared(zip, entry, type);
  } finally {
    zip.close();
  }
}
