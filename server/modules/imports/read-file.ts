import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { restoreCell, restoreCells } from '../../lib/csv.ts';
import { checkTabularLimits, readSheetRecords } from '../../lib/tabular-file.ts';
import { AppError } from '../../lib/errors.ts';
import { clip } from './problems.ts';

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

/**
 * A file as a header and its data rows, kept column by column: one array of cells per column
 * rather than one per row, which keeps 100,000 rows about 10 MB smaller. `rows[i]` is the row
 * number a person sees (header = 1) of data row i.
 */
export class RawTable {
  /** columns[j][i]: data row i's cell in column j; '' where the row is shorter. Columns past the header are kept for the check that flags them. */
  readonly columns: string[][] = [];
  readonly rows: number[] = [];

  constructor(
    readonly headers: string[],
    readonly headerRow: number,
  ) {}

  get size(): number {
    return this.rows.length;
  }

  /** The widest row's cell count (at least the header's). */
  get width(): number {
    return Math.max(this.headers.length, this.columns.length);
  }

  cell(i: number, j: number): string {
    return this.columns[j]?.[i] ?? '';
  }

  add(cells: readonly string[], row: number): void {
    const i = this.rows.length;
    for (let j = this.columns.length; j < cells.length; j++) this.columns.push(new Array<string>(i).fill(''));
    for (let j = 0; j < this.columns.length; j++) this.columns[j]!.push(cells[j] ?? '');
    this.rows.push(row);
  }

  /** The data rows as arrays of cells, for small files and tests (the import itself reads columns). */
  get records(): string[][] {
    return this.rows.map((_, i) => this.columns.map((c) => c[i]!).slice(0, this.rowWidth(i)));
  }

  private rowWidth(i: number): number {
    const w = this.headers.length;
    for (let j = this.columns.length - 1; j >= w; j--) if (this.columns[j]![i] !== '') return j + 1;
    return w;
  }
}

/** Thrown when the file cannot be read as a table at all: answered like any row problem. */
export class UnreadableFile extends Error {
  constructor(
    readonly row: number,
    message: string,
    /** The error code of a file over the reading limits (FILE_TOO_BIG_TO_READ). */
    readonly code?: string,
  ) {
    super(message);
  }
}

const CSV_OPTIONS = { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: true } as const;

/** Cells a CSV record brings: our exports' apostrophes dropped; null for a blank row. */
function csvRecord(record: string[]): string[] | null {
  for (let j = 0; j < record.length; j++) if (record[j]!.startsWith("'")) record[j] = restoreCell(record[j]!);
  return isBlank(record) ? null : record;
}

const csvProblem = (err: unknown) => {
  const e = err as { message?: string; lines?: number };
  return new UnreadableFile(e.lines ?? 1, clip(`The CSV could not be read: ${e.message ?? 'unknown error'}`, 300));
};

/** A CSV known to be small enough to read and valid UTF-8, or the problem that says why not. */
function checkCsv(buffer: Buffer): void {
  try {
    checkTabularLimits(buffer, 'csv');
  } catch (err) {
    throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The file could not be read.', err instanceof AppError ? err.code : undefined);
  }
  if (!isUtf8(buffer)) throw new UnreadableFile(1, 'The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again.');
}

const noHeader = () => new UnreadableFile(1, 'The file is empty: the first row must be the header row');

/**
 * A spreadsheet's first sheet, as tables of at most `partRows` data rows. Cells are read as
 * lib/tabular-file.ts's readTabular reads them (trimmed; a column is found by its header, the last
 * of equal headers winning, and a column with no header is empty), each row dropped from the
 * reader's list once it is in a part, so a part handed on and done with is memory given back.
 */
function* spreadsheetParts(buffer: Buffer, kind: 'xlsx' | 'xls', partRows: number): Generator<RawTable> {
  let records: (string[] | undefined)[];
  try {
    checkTabularLimits(buffer, kind);
    records = readSheetRecords(buffer);
  } catch (err) {
    throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The spreadsheet could not be read.', err instanceof AppError ? err.code : undefined);
  }
  restoreCells(records as string[][]);
  const headerIndex = records.findIndex((r) => !isBlank(r!));
  if (headerIndex < 0) throw noHeader();
  const headers = records[headerIndex]!.map((h) => h.trim());
  const source = headers.map((h) => (h ? headers.lastIndexOf(h) : -1));
  let table = new RawTable(headers, headerIndex + 1);
  let parts = 0;
  for (let i = headerIndex + 1; i < records.length; i++) {
    const cells = records[i]!;
    records[i] = undefined;
    if (isBlank(cells)) continue;
    table.add(
      source.map((k) => (k < 0 ? '' : (cells[k] ?? '').trim())),
      i + 1,
    );
    if (table.size >= partRows) {
      parts += 1;
      yield table;
      table = new RawTable(headers, headerIndex + 1);
    }
  }
  // A header and no data rows: one empty part, as from a CSV.
  if (table.size > 0 || parts === 0) yield table;
}

/** A spreadsheet's first sheet as one table (spreadsheetParts without the parts). */
function readSpreadsheet(buffer: Buffer, kind: 'xlsx' | 'xls'): RawTable {
  // With no limit on a part's rows, the first part is the whole sheet.
  return spreadsheetParts(buffer, kind, Number.POSITIVE_INFINITY).next().value as RawTable;
}

/**
 * Read a CSV (UTF-8, BOM or not, CRLF/LF/CR, quoted fields with commas and line breaks) or the
 * first sheet of a spreadsheet, once it is known to be small enough to read (TABULAR_LIMITS).
 * Empty rows are skipped; cells are trimmed, without the apostrophe our CSV exports put before
 * formula-like text (lib/csv.ts).
 */
export function readImportFile(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): RawTable {
  if (kind !== 'csv') return readSpreadsheet(buffer, kind);
  checkCsv(buffer);
  let table: RawTable | null = null;
  let row = 0;
  try {
    // The bytes, not one string of the whole file (10 MB with one accented letter is 20 MB as a
    // string), and each record goes into the columns as it is read instead of into a list of rows.
    parse(buffer, {
      ...CSV_OPTIONS,
      on_record: (record: string[]) => {
        row += 1;
        const cells = csvRecord(record);
        if (cells && table) table.add(cells, row);
        else if (cells) table = new RawTable(cells, row);
        return null;
      },
    });
  } catch (err) {
    throw csvProblem(err);
  }
  if (!table) throw noHeader();
  return table;
}

/** Bytes fed to the CSV parser at a time, so it hands records over as they are read. */
const CSV_SLICE_BYTES = 64 * 1024;

/**
 * The file as consecutive parts of at most `partRows` data rows, each with the header: a CSV is
 * parsed as the parts are taken, so a part's cells are the only ones in memory (a 100,000-row
 * file no longer lives as 900,000 strings at once). A file with a header and no data rows gives
 * one empty part. A spreadsheet's reader (SheetJS) holds the whole sheet while it reads, but its
 * rows are then handed on in parts too, so checking and staging them works on one part at a time.
 */
export async function* readImportFileInParts(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls', partRows: number): AsyncGenerator<RawTable> {
  if (kind !== 'csv') {
    yield* spreadsheetParts(buffer, kind, partRows);
    return;
  }
  checkCsv(buffer);
  const parser = parseStream(CSV_OPTIONS);
  Readable.from(
    (function* () {
      for (let at = 0; at < buffer.length; at += CSV_SLICE_BYTES) yield buffer.subarray(at, at + CSV_SLICE_BYTES);
    })(),
  ).pipe(parser);
  let header: { cells: string[]; row: number } | null = null;
  let part: RawTable | null = null;
  let parts = 0;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      const cells = csvRecord(record);
      if (!cells) continue;
      if (!header) {
        header = { cells, row };
        continue;
      }
      part ??= new RawTable(header.cells, header.row);
      part.add(cells, row);
      if (part.size >= partRows) {
        parts += 1;
        yield part;
        part = null;
      }
    }
  } catch (err) {
    throw err instanceof UnreadableFile ? err : csvProblem(err);
  } finally {
    // The reader may stop early (a refused file): the parser is not left holding the rest.
    parser.destroy();
  }
  if (!header) throw noHeader();
  if (part || parts === 0) yield part ?? new RawTable(header.cells, header.row);
}
