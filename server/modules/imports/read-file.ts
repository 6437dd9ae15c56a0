import { parse } from 'csv-parse/sync';
import { restoreCells } from '../../lib/csv.ts';
import { checkTabularLimits, readTabular } from '../../lib/tabular-file.ts';
import { AppError } from '../../lib/errors.ts';
import { clip } from './problems.ts';

/** A file as header + records of cells; `rows[i]` is the row number a person sees (header = 1). */
export type RawTable = { headers: string[]; headerRow: number; records: string[][]; rows: number[] };

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

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

/**
 * Read a CSV (UTF-8, BOM or not, CRLF/LF/CR, quoted fields with commas and line breaks) or the
 * first sheet of a spreadsheet, once it is known to be small enough to read (TABULAR_LIMITS).
 * Empty rows are skipped; cells are trimmed, without the apostrophe our CSV exports put before
 * formula-like text (lib/csv.ts). Arrays, not objects per row: 100,000 rows stay compact.
 */
export function readImportFile(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): RawTable {
  let records: string[][];
  if (kind === 'csv') {
    try {
      checkTabularLimits(buffer, kind);
    } catch (err) {
      throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The file could not be read.', err instanceof AppError ? err.code : undefined);
    }
    const text = buffer.toString('utf8');
    if (text.includes('\uFFFD')) throw new UnreadableFile(1, 'The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again.');
    try {
      records = parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: true }) as string[][];
    } catch (err) {
      const e = err as { message?: string; lines?: number };
      throw new UnreadableFile(e.lines ?? 1, clip(`The CSV could not be read: ${e.message ?? 'unknown error'}`, 300));
    }
  } else {
    let table;
    try {
      table = readTabular(buffer, kind);
    } catch (err) {
      throw new UnreadableFile(1, err instanceof AppError ? err.message : 'The spreadsheet could not be read.', err instanceof AppError ? err.code : undefined);
    }
    return {
      headers: table.headers,
      headerRow: 1,
      records: table.rows.map((r) => table.headers.map((h) => r.values[h] ?? '')),
      rows: table.rows.map((r) => r.line),
    };
  }
  restoreCells(records);
  const headerIndex = records.findIndex((r) => !isBlank(r));
  if (headerIndex < 0) throw new UnreadableFile(1, 'The file is empty: the first row must be the header row');
  const headers = records[headerIndex]!;
  const out: string[][] = [];
  const rows: number[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const cells = records[i]!;
    if (isBlank(cells)) continue;
    out.push(cells);
    rows.push(i + 1);
  }
  return { headers, headerRow: headerIndex + 1, records: out, rows };
}
