import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { createDeflate } from 'node:zlib';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import yazl from 'yazl';

/**
 * Real files of every knowledge type, built here with the libraries that write them (docx, exceljs, yazl)
 * or, for the plain formats, written out in full; and the hostile ones the upload must refuse.
 */

/** A one-page PDF with `lines` of text in Helvetica: catalog, pages, page, content stream, font, xref, trailer. */
export function pdfFile(lines: string[]): Buffer {
  return pdfWithContent(Buffer.from(textOperators(lines), 'latin1'), '');
}

/**
 * A one-page PDF whose content stream is `padding` spaces (blanks between operators) and then `lines`,
 * deflated (/FlateDecode): a file of about padding / 1000 bytes that a parser inflates to `padding` bytes.
 */
export async function pdfBomb(padding: number, lines: string[]): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  const out = collect(deflate);
  for (let left = padding; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await once(deflate, 'drain');
  }
  deflate.end(textOperators(lines));
  return pdfWithContent(await out, ' /Filter /FlateDecode');
}

function textOperators(lines: string[]): string {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  return lines.map((line, i) => `BT /F1 12 Tf 72 ${720 - i * 16} Td (${escape(line)}) Tj ET`).join('\n');
}

function pdfWithContent(stream: Buffer, filter: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length}${filter} >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const push = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    push(body);
    push('\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  push(offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join(''));
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

export async function docxFile(paragraphs: string[]): Promise<Buffer> {
  const doc = new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph(text)) }] });
  return Packer.toBuffer(doc);
}

/** An XLSX with one sheet per entry of `sheets`: rows of cell values. */
export async function xlsxFile(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** `size` zero bytes, streamed in 1 MiB chunks: compresses about a thousandfold. */
function zeros(size: number): Readable {
  let left = size;
  const chunk = Buffer.alloc(1024 * 1024);
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A zip whose entries are `size` zero bytes each: small on the wire, huge inflated (a zip bomb). */
export function zipOfZeros(entries: Record<string, number>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, size] of Object.entries(entries)) zip.addReadStream(zeros(size), name, { size });
  zip.end();
  return collect(zip.outputStream);
}

/** A zip of small real entries. */
export function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  return collect(zip.outputStream);
}

/**
 * A zip that lies: its central directory declares `declared` bytes for each entry, while the data inflates
 * to far more. A parser that trusts the directory would inflate it all.
 */
export async function lyingZip(entries: Record<string, number>, declared: number): Promise<Buffer> {
  const zip = await zipOfZeros(entries);
  const CENTRAL_HEADER = 0x02014b50;
  for (let at = zip.length - 22; at >= 0; at--) {
    if (zip.readUInt32LE(at) === CENTRAL_HEADER) zip.writeUInt32LE(declared, at + 24);
  }
  return zip;
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What a stalled upload heard: the answer's status line, headers and body, once the emulator closed it. */
export interface StalledAnswer {
  status: number;
  headers: string;
  body: string;
}

/**
 * A knowledge file upload over a raw socket that declares `declared` bytes, sends the form's first
 * `sent` file bytes and then stops, never ending the request. `answer` settles when the server closes the
 * connection; `stop()` closes it from this side.
 */
export function stalledUpload(
  url: string,
  apiKey: string,
  sent: number,
  declared = sent + 1024 * 1024,
): { answer: Promise<StalledAnswer>; stop(): void } {
  const { hostname, port, pathname } = new URL(url);
  const part = `--XX\r\nContent-Disposition: form-data; name="file"; filename="stalled.txt"\r\ncontent-type: text/plain\r\n\r\n`;
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Authorization: Bearer ${apiKey}`,
    'Content-Type: multipart/form-data; boundary=XX',
    `Content-Length: ${declared}`,
    '',
    '',
  ].join('\r\n');
  const socket = connect(Number(port), hostname, () => {
    socket.write(head + part);
    socket.write(Buffer.alloc(sent, 'a'));
  });
  const answer = new Promise<StalledAnswer>((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [top = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      resolve({ status: Number(top.split(' ')[1]), headers: top, body });
    });
  });
  return { answer, stop: () => socket.destroy() };
}

const OFFICE_TYPES = (parts: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
  `<Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`;
const RELS = (targets: [type: string, target: string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  targets.map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${target}"/>`).join('') +
  `</Relationships>`;
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

/**
 * A DOCX whose document.xml holds `paragraphs` paragraphs of `text` each: written as its XML (the docx
 * library would take minutes for a large one), valid for mammoth, and about a hundredfold compressed.
 * A costly file within every bound of the spec (20 MiB an entry, 50 MiB expanded): its parse is bounded only
 * by the parse process's own memory limit.
 */
export function bulkyDocx(paragraphs: number, text: string): Promise<Buffer> {
  const body = `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`.repeat(paragraphs);
  return zipOf({
    '[Content_Types].xml': OFFICE_TYPES(
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
    ),
    '_rels/.rels': RELS([[OFFICE_DOCUMENT, 'word/document.xml']]),
    'word/document.xml':
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      `<w:body>${body}</w:body></w:document>`,
  });
}

/** An XLSX of one sheet, `rows` by `columns` cells of inline string `text`, written as its XML (see bulkyDocx). */
export function bulkyXlsx(rows: number, columns: number, text: string): Promise<Buffer> {
  const column = (c: number): string =>
    (c < 26 ? '' : column(Math.floor(c / 26) - 1)) + String.fromCharCode(65 + (c % 26));
  const letters = Array.from({ length: columns }, (_, c) => column(c));
  const row = (r: number) => letters.map((l) => `<c r="${l}${r}" t="inlineStr"><is><t>${text}</t></is></c>`).join('');
  const sheet = Array.from({ length: rows }, (_, r) => `<row r="${r + 1}">${row(r + 1)}</row>`).join('');
  const main = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return zipOf({
    '[Content_Types].xml': OFFICE_TYPES(
      `<Override PartName="/xl/workbook.xml" ContentType="${main}.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${main}.worksheet+xml"/>`,
    ),
    '_rels/.rels': RELS([[OFFICE_DOCUMENT, 'xl/workbook.xml']]),
    'xl/workbook.xml':
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
      `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` +
      `<sheet name="Bulk" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': RELS([
      ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet', 'worksheets/sheet1.xml'],
    ]),
    'xl/worksheets/sheet1.xml':
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
      `<sheetData>${sheet}</sheetData></worksheet>`,
  });
}
