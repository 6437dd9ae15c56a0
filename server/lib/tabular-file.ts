import { parse } from 'csv-parse/sync';
import * as XLSX from '@e965/xlsx';
import { restoreCells } from './csv.ts';
import { AppError, badRequest } from './errors.ts';
import { inflateZipEntry, isZip, readZipDirectory, ZipRefused, ZipTooLarge } from './zip-directory.ts';

export const INVALID_FILE_TYPE = 'Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).';
export const INVALID_CSV_TYPE = 'Invalid File Type: Please upload a CSV file (.csv).';
export const fileTooLarge = (mb: number) => `File Too Large: Please upload a file smaller than ${mb}MB.`;

type TabularRow = { line: number; values: Record<string, string> };
type Tabular = { headers: string[]; rows: TabularRow[] };

export function fileKind(fileName: string): 'csv' | 'xlsx' | 'xls' | null {
  const ext = fileName.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  return ext === 'csv' || ext === 'xlsx' || ext === 'xls' ? ext : null;
}

const isBlankRow = (cells: string[]) => cells.every((c) => c.trim() === '');

/**
 * What an import reads, so that any accepted upload (10 MB at most) stays well under 300 MB of
 * memory. A spreadsheet costs ~250 bytes of memory per cell once parsed (SheetJS objects and
 * strings) and ~4x its unpacked XML; a 0.8 MB .xlsx of repeated rows unpacks to hundreds of MB.
 * So each file is measured BEFORE it is parsed (CSV: line breaks and commas; .xlsx: the zip's
 * sizes, inflated with a ceiling, and its <row> and <c> elements; .xls: its cell records) and
 * refused with a 400 that names the limit. Measured (imports/file-limits.test.ts, a server
 * process at ~160 MB at rest): a 0.6 MB bomb that unpacks to 150 MB took ~950 MB and 33 s to
 * parse before these limits and is now refused in milliseconds; the largest files still accepted
 * (300,000 cells, 20 MB of long text, a 2,000,000-cell CSV) peaked at 220-230 MB then; with the
 * app grown, 30-115 MB above the server at rest (Nov 2026), within the 140 MB that budget allows.
 */
export const TABULAR_LIMITS = {
  /** Data rows (the header row is not counted): the 100,000-student import of decision 005. */
  maxRows: 100_000,
  /** Cells of a CSV (rows x columns, blanks included). */
  maxCsvCells: 2_000_000,
  /** Cells of a spreadsheet's sheet: rows x columns of its used range, and cells written. */
  maxSheetCells: 300_000,
  /** An .xlsx unpacked, all its parts together. */
  maxInflatedBytes: 20 * 1024 * 1024,
  maxZipEntries: 1_000,
};

const count = (n: number) => n.toLocaleString('en-US');
const tooLarge = (what: string, spreadsheet: boolean) =>
  new AppError(400, 'FILE_TOO_BIG_TO_READ', `${what} Split it into smaller files${spreadsheet ? ', or save it as CSV (UTF-8), which may hold more' : ''}.`);
const tooManyRows = (rows: number, spreadsheet: boolean) =>
  tooLarge(`The file has more than ${count(TABULAR_LIMITS.maxRows)} data rows (${count(rows)}), the most one import reads.`, spreadsheet);
const tooManyCells = (spreadsheet: boolean) =>
  tooLarge(
    `The ${spreadsheet ? 'spreadsheet' : 'file'} has more than ${count(spreadsheet ? TABULAR_LIMITS.maxSheetCells : TABULAR_LIMITS.maxCsvCells)} cells (rows x columns), the most one import reads.`,
    spreadsheet,
  );
const notReal = (kind: 'xlsx' | 'xls', why: string) =>
  badRequest(
    `The spreadsheet could not be read: it is not a real .${kind} file (${why}). Save it from your spreadsheet program as .xlsx or CSV and try again.`,
  );

/** Occurrences of a byte. */
function countByte(buf: Buffer, byte: number): number {
  let n = 0;
  for (let i = buf.indexOf(byte); i >= 0; i = buf.indexOf(byte, i + 1)) n++;
  return n;
}

/** A CSV's rows (line breaks, an upper bound) and cells (commas + rows), counted on the bytes. */
function checkCsv(buf: Buffer): void {
  const lines = Math.max(countByte(buf, 0x0a), countByte(buf, 0x0d)) + 1;
  if (lines - 1 > TABULAR_LIMITS.maxRows + 1) throw tooManyRows(lines - 2, false);
  if (countByte(buf, 0x2c) + lines > TABULAR_LIMITS.maxCsvCells) throw tooManyCells(false);
}

/** <row> and <c> elements (with or without a namespace prefix) in an XML part, on the bytes. */
function countRowsAndCells(xml: Buffer): { rows: number; cells: number } {
  let rows = 0;
  let cells = 0;
  for (let i = xml.indexOf(0x3c); i >= 0 && i < xml.length - 1; i = xml.indexOf(0x3c, i + 1)) {
    let j = i + 1;
    let nameStart = j;
    for (; j < xml.length; j++) {
      const b = xml[j]!;
      if (b === 0x3a)
        nameStart = j + 1; // a prefix: x:row
      else if (b === 0x20 || b === 0x3e || b === 0x2f || b === 0x09 || b === 0x0a || b === 0x0d) break;
      if (j - i > 64) break;
    }
    const length = j - nameStart;
    if (length === 1 && xml[nameStart] === 0x63) cells++;
    else if (length === 3 && xml[nameStart] === 0x72 && xml[nameStart + 1] === 0x6f && xml[nameStart + 2] === 0x77) rows++;
  }
  return { rows, cells };
}

/**
 * An .xlsx, before SheetJS sees it: a zip with a workbook part, whose parts unpack (inflated for
 * real, with a ceiling, not trusting the declared sizes) to at most maxInflatedBytes together, and
 * whose largest sheet has at most maxRows rows and maxSheetCells cells.
 */
function checkXlsx(buf: Buffer): void {
  if (!isZip(buf)) throw notReal('xlsx', 'it is not a zip archive');
  let entries;
  try {
    entries = readZipDirectory(buf, TABULAR_LIMITS.maxZipEntries);
  } catch (err) {
    if (err instanceof ZipRefused) throw notReal('xlsx', `it is ${err.message}`);
    throw err;
  }
  if (!entries.some((e) => /^xl[/\\]workbook\.xml$/i.test(e.name))) throw notReal('xlsx', 'it has no workbook part');
  const unpacked = () => tooLarge(`The spreadsheet unpacks to more than ${TABULAR_LIMITS.maxInflatedBytes / 1024 / 1024} MB, the most one import reads.`, true);
  if (entries.reduce((n, e) => n + e.declaredSize, 0) > TABULAR_LIMITS.maxInflatedBytes) throw unpacked();
  let budget = TABULAR_LIMITS.maxInflatedBytes;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    let data: Buffer;
    try {
      data = inflateZipEntry(buf, entry, budget);
    } catch (err) {
      if (err instanceof ZipTooLarge) throw unpacked();
      if (err instanceof ZipRefused) throw notReal('xlsx', `it has ${err.message}`);
      throw err;
    }
    budget -= data.length;
    if (!/\.xml$/i.test(entry.name)) continue;
    // Excel writes UTF-8; a UTF-16 part would hide its elements from the count below.
    if (data.length >= 2 && ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff))) throw notReal('xlsx', 'it has a UTF-16 part');
    const { rows, cells } = countRowsAndCells(data);
    if (rows > TABULAR_LIMITS.maxRows + 1) throw tooManyRows(rows - 1, true);
    if (cells > TABULAR_LIMITS.maxSheetCells) throw tooManyCells(true);
  }
}

/** BIFF cell records (BIFF2-8): one cell each, or several for MULRK / MULBLANK. */
const BIFF_SINGLE_CELLS = new Set([0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0201, 0x0203, 0x0204, 0x0205, 0x0206, 0x0406, 0x027e, 0x00fd, 0x00d6]);

/** Cells and the highest row index in a BIFF record stream (the .xls workbook stream). */
function countBiffCells(stream: Uint8Array): { rows: number; cells: number } {
  const view = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  let cells = 0;
  let rows = 0;
  for (let p = 0; p + 4 <= view.length;) {
    const type = view.readUInt16LE(p);
    const size = view.readUInt16LE(p + 2);
    const body = p + 4;
    if (body + size > view.length) break;
    if (BIFF_SINGLE_CELLS.has(type)) cells += 1;
    else if (type === 0x00bd && size >= 6)
      cells += Math.floor((size - 6) / 6); // MULRK
    else if (type === 0x00be && size >= 6) cells += Math.floor((size - 6) / 2); // MULBLANK
    if ((BIFF_SINGLE_CELLS.has(type) || type === 0x00bd || type === 0x00be) && size >= 2) rows = Math.max(rows, view.readUInt16LE(body) + 1);
    p = body + size;
  }
  return { rows, cells };
}

/** An .xls, before SheetJS parses it: an OLE2 compound file whose workbook stream holds at most the limits' cells and rows. */
function checkXls(buf: Buffer): void {
  const OLE2 = Buffer.from('d0cf11e0a1b11ae1', 'hex');
  const BIFF_BOF = buf.length >= 2 && buf[0] === 0x09 && (buf[1] === 0x00 || buf[1] === 0x02 || buf[1] === 0x04 || buf[1] === 0x08);
  let stream: Uint8Array;
  if (buf.subarray(0, 8).equals(OLE2)) {
    let found: { content?: Uint8Array } | null = null;
    try {
      const cfb = XLSX.CFB.read(buf, { type: 'buffer' });
      found = XLSX.CFB.find(cfb, 'Workbook') ?? XLSX.CFB.find(cfb, 'Book');
    } catch {
      throw notReal('xls', 'its container is damaged');
    }
    if (!found?.content) throw notReal('xls', 'it has no workbook stream');
    stream = found.content;
  } else if (BIFF_BOF) {
    stream = buf; // BIFF2-4: the record stream itself
  } else {
    throw notReal('xls', 'it is not an Excel 97-2003 workbook');
  }
  const { rows, cells } = countBiffCells(stream);
  if (rows > TABULAR_LIMITS.maxRows + 1) throw tooManyRows(rows - 1, true);
  if (cells > TABULAR_LIMITS.maxSheetCells) throw tooManyCells(true);
}

/**
 * Refuse, before parsing, a file that would take too much memory to read (TABULAR_LIMITS), or a
 * spreadsheet that is not what its name says. Both readers call this first.
 */
export function checkTabularLimits(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): void {
  if (kind === 'csv') checkCsv(buffer);
  else if (kind === 'xlsx') checkXlsx(buffer);
  else checkXls(buffer);
}

/** After parsing: the sheet's used range (what sheet_to_json walks, blanks included) within the limits. */
function checkUsedRange(sheet: XLSX.WorkSheet): void {
  const range = XLSX.utils.decode_range((sheet['!fullref'] as string | undefined) ?? sheet['!ref'] ?? 'A1:A1');
  const rows = range.e.r - range.s.r + 1;
  const columns = range.e.c - range.s.c + 1;
  if (rows > TABULAR_LIMITS.maxRows + 1) throw tooManyRows(rows - 1, true);
  if (rows * columns > TABULAR_LIMITS.maxSheetCells) throw tooManyCells(true);
}

/**
 * Date cells as YYYY-MM-DD (with HH:MM:SS when they hold a time of day too), whatever their
 * display format: the shown text ('8/24/26', '24/08/2026') depends on the author's locale, the
 * cell's value does not. Times of day alone (a date in 1899) keep their text ('9:00').
 */
function writeDatesAsIso(sheet: XLSX.WorkSheet): void {
  for (const row of (sheet['!data'] as (XLSX.CellObject | undefined)[][] | undefined) ?? []) {
    for (const cell of row ?? []) {
      if (cell?.t !== 'd' || !(cell.v instanceof Date) || cell.v.getUTCFullYear() < 1900) continue;
      const iso = cell.v.toISOString();
      cell.w = iso.slice(11, 19) === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
    }
  }
}

/**
 * The first sheet of a spreadsheet as rows of cell texts (dates as yyyy-mm-dd), blank rows
 * included, so a row's index + 1 is the row number a person sees. Call checkTabularLimits first.
 */
export function readSheetRecords(buffer: Buffer): string[][] {
  let wb: XLSX.WorkBook;
  try {
    // Only the first sheet, and no more rows than the limit even if a count above was fooled.
    wb = XLSX.read(buffer, { type: 'buffer', cellDates: true, dense: true, sheets: 0, sheetRows: TABULAR_LIMITS.maxRows + 2, cellHTML: false });
  } catch {
    throw badRequest('The spreadsheet could not be read. Check that it is a real .xlsx or .xls file.');
  }
  const sheet = wb.Sheets[wb.SheetNames[0] ?? ''];
  if (!sheet) throw badRequest('The spreadsheet has no sheets');
  checkUsedRange(sheet);
  writeDatesAsIso(sheet);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true, dateNF: 'yyyy-mm-dd' }) as unknown[][];
  // Cells made text in place: a second array per row would double the rows at the peak.
  for (const r of rows) for (let j = 0; j < r.length; j++) r[j] = r[j] == null ? '' : String(r[j]);
  return rows as string[][];
}

/**
 * Read a CSV (UTF-8, with or without BOM, CRLF or LF, quoted fields) or a spreadsheet's first
 * sheet into header + rows. `line` is the row number a person sees in the file (header = 1).
 * Empty rows are skipped. Cells are trimmed strings, without the apostrophe our CSV exports put
 * before formula-like text (lib/csv.ts), so an exported file imports back as it was.
 */
export function readTabular(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): Tabular {
  checkTabularLimits(buffer, kind);
  let records: string[][];
  if (kind === 'csv') {
    const text = buffer.toString('utf8');
    if (text.includes('\uFFFD')) throw badRequest('The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again.');
    try {
      records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
    } catch (err) {
      throw badRequest(`The CSV could not be read: ${(err as Error).message}`);
    }
  } else {
    records = readSheetRecords(buffer);
  }
  restoreCells(records);
  const headerIndex = records.findIndex((r) => !isBlankRow(r));
  if (headerIndex < 0) throw badRequest('The file is empty: the first row must be the header row');
  const headers = records[headerIndex]!.map((h) => h.trim());
  const rows: TabularRow[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const cells = records[i]!;
    if (isBlankRow(cells)) continue;
    const values: Record<string, string> = {};
    headers.forEach((h, j) => {
      if (h) values[h] = (cells[j] ?? '').trim();
    });
    rows.push({ line: i + 1, values });
  }
  return { headers, rows };
}
