import { Readable } from 'node:stream';
import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/**
 * The one CSV writer of the product (docs/decisions/007-csv-exports.md). Every file Muster writes
 * is opened by staff in a spreadsheet program, which runs a cell that starts with `=`, `+`, `-`,
 * `@` (or a tab or carriage return before one) as a formula: `=HYPERLINK(…)` in a student's SIS id
 * would become a link in the registrar's Excel. So every text cell that could start a formula gets
 * a leading apostrophe, which spreadsheets read as "this is text"; numbers stay numbers.
 */

const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** The first characters a spreadsheet treats as the start of a formula (with the full-width forms Apple Numbers folds to them). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain number such as -3, +4, 12.5 or -1.5e3: a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Whether a text cell gets the apostrophe: it starts like a formula and is not a plain number.
 * Apostrophes already at its start are looked through (`'=1` is written `''=1`), so that
 * `restoreCell` removes exactly the one added and a value that itself began with an apostrophe
 * comes back unchanged.
 */
function needsQuote(text: string): boolean {
  const core = text.replace(/^'+/, '');
  return FORMULA_START.test(core) && !PLAIN_NUMBER.test(core);
}

/** A text cell as it is written: `'` + text when a spreadsheet would run it as a formula. */
export function neutraliseCell(text: string): string {
  return needsQuote(text) ? `'${text}` : text;
}

/**
 * The inverse, for files read back by the importers: drops the one apostrophe `neutraliseCell`
 * added, and nothing else (`'abc` or `'12` typed by hand keep theirs).
 */
export function restoreCell(text: string): string {
  return text.startsWith("'") && needsQuote(text.slice(1)) ? text.slice(1) : text;
}

/** How values become cells: text neutralised; numbers as written; true/false; instants in ISO 8601; objects as JSON. */
const cast = {
  string: (v: string) => neutraliseCell(v),
  number: (v: number) => (Number.isFinite(v) ? String(v) : neutraliseCell(String(v))),
  bigint: (v: bigint) => String(v),
  boolean: (v: boolean) => (v ? 'true' : 'false'),
  date: (v: Date) => v.toISOString(),
  object: (v: object) => neutraliseCell(JSON.stringify(v)),
};

/**
 * A streaming CSV of records keyed by `columns` (header row first). Write records and end it;
 * backpressure as any stream (`write` returns false → wait for 'drain').
 */
/** A CSV being written: rows go in with write(), the file streams out to the reply. */
export type CsvStream = Stringifier;

export function csvStream(columns: readonly string[]): CsvStream {
  return stringify({ header: true, columns: [...columns], cast });
}

/**
 * Records from an async source (batches read from the database) as a streaming CSV: a failing
 * source ends the file with its error, and a reader that goes away (the reply destroyed) stops the
 * source, so no more batches are read for nobody.
 */
export function csvFromRows(columns: readonly string[], rows: AsyncIterable<Record<string, unknown>>): Readable {
  const csv = csvStream(columns);
  const source = Readable.from(rows);
  source.on('error', (err) => csv.destroy(err));
  csv.on('close', () => source.destroy());
  return source.pipe(csv);
}

/**
 * A whole small CSV (rows of cells, the first being the header) as text, with CRLF line ends and
 * an optional UTF-8 byte-order mark so spreadsheet programs open accented names correctly.
 */
export function csvText(rows: readonly (readonly unknown[])[], opts: { bom?: boolean } = {}): string {
  return (
    (opts.bom ? '\uFEFF' : '') +
    stringifySync(
      rows.map((r) => [...r]),
      { record_delimiter: '\r\n', cast },
    )
  );
}

/** Response headers of a CSV download saved under `fileName`. */
export function csvDownloadHeaders(fileName: string): Record<string, string> {
  return { 'content-type': CSV_CONTENT_TYPE, 'content-disposition': `attachment; filename="${fileName}"` };
}

/** `restoreCell` over every cell of a parsed file, in place (the importers call this once per file). */
export function restoreCells(records: string[][]): void {
  for (const r of records) {
    for (let j = 0; j < r.length; j++) if (r[j]!.startsWith("'")) r[j] = restoreCell(r[j]!);
  }
}
