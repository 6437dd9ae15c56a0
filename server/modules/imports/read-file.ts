import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { restoreCell } from '../../lib/csv.ts';
import { checkTabularLimits, readTabular } from '../../lib/tabular-file.ts';
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

/**
 * Read a CSV (UTF-8, BOM or not, CRLF/LF/CR, quoted fields with commas and line breaks) or the
 * first sheet of a spreadsheet, once it is known to be small enough to read (TABULAR_LIMITS).
 * Empty rows are skipped; cells are trimmed, without the apostrophe our CSV exports put before
 * formula-like text (lib/csv.ts).
 */
export function readImportFile(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): RawTable {
  if (kind !== 'csv') {
    let sheet;
    try {
      sheet = readTabular(buffer, kind);
    } catch (err) {
      throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The spreadsheet could not be read.', err instanceof AppError ? err.code : undefined);
    }
    const table = new RawTable(sheet.headers, 1);
    for (const r of sheet.rows) table.add(sheet.headers.map((h) => r.values[h] ?? ''), r.line);
    return table;
  }
  try {
    checkTabularLimits(buffer, kind);
  } catch (err) {
    throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The file could not be read.', err instanceof AppError ? err.code : undefined);
  }
  if (!isUtf8(buffer)) throw new UnreadableFile(1, 'The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again.');
  let table: RawTable | null = null;
  let row = 0;
  try {
    // The bytes, not one string of the whole file (10 MB with one accented letter is 20 MB as a
    // string), and each record goes into the columns as it is read instead of into a list of rows.
    parse(buffer, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      trim: true,
      on_record: (record: string[]) => {
        row += 1;
        for (let j = 0; j < record.length; j++) if (record[j]!.startsWith("'")) record[j] = restoreCell(record[j]!);
        if (isBlank(record)) return null;
        if (table) table.add(record, row);
        else table = new RawTable(record, row);
        return null;
      },
    });
  } catch (err) {
    const e = err as { message?: string; lines?: number };
    throw new UnreadableFile(e.lines ?? 1, clip(`The CSV could not be read: ${e.message ?? 'unknown error'}`, 300));
  }
  if (!table) throw new UnreadableFile(1, 'The file is empty: the first row must be the header row');
  return table;
}
