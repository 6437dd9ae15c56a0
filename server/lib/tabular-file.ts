import { parse } from 'csv-parse/sync';
import * as XLSX from '@e965/xlsx';
import { restoreCells } from './csv.ts';
import { badRequest } from './errors.ts';

export const INVALID_FILE_TYPE = 'Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).';
export const INVALID_CSV_TYPE = 'Invalid File Type: Please upload a CSV file (.csv).';
export const fileTooLarge = (mb: number) => `File Too Large: Please upload a file smaller than ${mb}MB.`;

export type TabularRow = { line: number; values: Record<string, string> };
export type Tabular = { headers: string[]; rows: TabularRow[] };

export function fileKind(fileName: string): 'csv' | 'xlsx' | 'xls' | null {
  const ext = fileName.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  return ext === 'csv' || ext === 'xlsx' || ext === 'xls' ? ext : null;
}

const isBlankRow = (cells: string[]) => cells.every((c) => c.trim() === '');

/**
 * Read a CSV (UTF-8, with or without BOM, CRLF or LF, quoted fields) or a spreadsheet's first
 * sheet into header + rows. `line` is the row number a person sees in the file (header = 1).
 * Empty rows are skipped. Cells are trimmed strings, without the apostrophe our CSV exports put
 * before formula-like text (lib/csv.ts), so an exported file imports back as it was.
 */
export function readTabular(buffer: Buffer, kind: 'csv' | 'xlsx' | 'xls'): Tabular {
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
    let wb: XLSX.WorkBook;
    try {
      wb = XLSX.read(buffer, { type: 'buffer', cellDates: true, dense: true });
    } catch {
      throw badRequest('The spreadsheet could not be read. Check that it is a real .xlsx or .xls file.');
    }
    const sheet = wb.Sheets[wb.SheetNames[0] ?? ''];
    if (!sheet) throw badRequest('The spreadsheet has no sheets');
    records = (XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true, dateNF: 'yyyy-mm-dd' }) as unknown[][]).map(
      (r) => r.map((c) => (c == null ? '' : String(c))),
    );
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
