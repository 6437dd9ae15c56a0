import { normaliseHeader, type ImportColumn, type ImportTypeDefinition } from '../../../common/import-column-rules.ts';
import { DateReading } from './dates.ts';
import { parseCell, type CellValue } from './parse-cell.ts';
import type { Problems } from './problems.ts';
import type { RawTable } from './read-file.ts';

function headerLookup(def: ImportTypeDefinition): Map<string, ImportColumn> {
  const map = new Map<string, ImportColumn>();
  for (const c of def.columns) {
    for (const spelling of [c.name, ...c.aliases]) map.set(normaliseHeader(spelling), c);
  }
  return map;
}

const DATE_KINDS = new Set(['date', 'datetime', 'dateList']);

const DEFAULTS: Partial<Record<string, (c: ImportColumn) => CellValue>> = {
  enum: (c) => (c.rule.kind === 'enum' ? (c.rule.default ?? null) : null),
  boolean: (c) => (c.rule.kind === 'boolean' ? (c.rule.default ?? null) : null),
};

/**
 * How a file's header maps to the type's columns, checked once per file: unknown, duplicate and
 * missing required columns are problems at the header row. Data in a column with no header is
 * flagged once per column, in whichever part of the file it first appears.
 */
export class SheetLayout {
  readonly index = new Map<string, number>();
  private readonly headerless: number[] = [];

  private constructor(
    readonly def: ImportTypeDefinition,
    readonly headers: readonly string[],
    readonly headerRow: number,
  ) {}

  /** `ignoreUnknownColumns`: other columns are skipped instead (the courses screen's list always did). */
  static of(
    def: ImportTypeDefinition,
    headers: readonly string[],
    headerRow: number,
    problems: Problems,
    opts: { ignoreUnknownColumns?: boolean } = {},
  ): SheetLayout {
    const layout = new SheetLayout(def, headers, headerRow);
    const lookup = headerLookup(def);
    headers.forEach((header, j) => {
      const h = header.trim();
      if (h === '') {
        layout.headerless.push(j);
        return;
      }
      const column = lookup.get(normaliseHeader(h));
      if (!column) {
        if (opts.ignoreUnknownColumns) return;
        problems.add(headerRow, h, `Unknown column "${h}": not a column of the ${def.label.toLowerCase()} template`);
        return;
      }
      if (layout.index.has(column.name)) {
        const other = headers[layout.index.get(column.name)!]!;
        problems.add(headerRow, h, `Column ${column.name} appears twice (also as "${other}")`);
        return;
      }
      layout.index.set(column.name, j);
    });
    for (const c of def.columns) {
      if (!c.required || layout.index.has(c.name)) continue;
      if (c.alternative && layout.index.has(c.alternative)) continue;
      problems.add(headerRow, c.name, `Missing required column ${c.name}${c.alternative ? ` (or ${c.alternative})` : ''}`);
    }
    problems.spelling = (c) => {
      const j = layout.index.get(c);
      return j === undefined ? c : headers[j]!.trim();
    };
    return layout;
  }

  /** The first cell with data in each column that has no header (each column reported once per file). */
  flagHeaderlessCells(table: RawTable, problems: Problems): void {
    for (const j of [...this.headerless]) {
      const firstUsed = (table.columns[j] ?? []).findIndex((cell) => cell.trim() !== '');
      if (firstUsed < 0) continue;
      problems.add(table.rows[firstUsed]!, `(column ${j + 1})`, 'This cell is in a column with no header');
      this.headerless.splice(this.headerless.indexOf(j), 1);
    }
  }
}

/**
 * A validated file, or a part of one, column by column: every present column's cells parsed by
 * its rule. Blank cells are null (or the column's default); invalid cells are null and recorded
 * as problems.
 */
export class Sheet {
  private readonly parsed = new Map<string, CellValue[]>();

  private constructor(
    private readonly layout: SheetLayout,
    private readonly table: RawTable,
  ) {}

  get def(): ImportTypeDefinition {
    return this.layout.def;
  }
  get size(): number {
    return this.table.size;
  }
  row(i: number): number {
    return this.table.rows[i]!;
  }
  has(column: string): boolean {
    return this.layout.index.has(column);
  }
  /** The trimmed cell as written in the file ('' when blank or the column is absent). */
  raw(column: string, i: number): string {
    const j = this.layout.index.get(column);
    return j === undefined ? '' : this.table.cell(i, j).trim();
  }
  value<T extends CellValue = CellValue>(column: string, i: number): T | null {
    return (this.parsed.get(column)?.[i] ?? null) as T | null;
  }
  text(column: string, i: number): string | null {
    return this.value<string>(column, i);
  }

  /**
   * Map the header to the type's columns and parse every cell of a whole file. Returns null when
   * the header itself is wrong (unknown, duplicate or missing required columns, data under no
   * header): rows are not checked then.
   */
  static build(
    def: ImportTypeDefinition,
    table: RawTable,
    problems: Problems,
    opts: { ignoreUnknownColumns?: boolean } = {},
    dates = new DateReading(),
  ): Sheet | null {
    const before = problems.count;
    const layout = SheetLayout.of(def, table.headers, table.headerRow, problems, opts);
    layout.flagHeaderlessCells(table, problems);
    if (problems.count > before) return null;
    if (table.size === 0) {
      problems.add(table.headerRow, '', 'The file has a header row but no data rows');
      return null;
    }
    return Sheet.parse(layout, table, problems, dates);
  }

  /**
   * Parse the rows of `table` (the whole file or a part of it) by a checked layout. `dates` is the
   * file's: it learns the day/month order from this part's date cells before reading them.
   */
  static parse(layout: SheetLayout, table: RawTable, problems: Problems, dates: DateReading): Sheet {
    const sheet = new Sheet(layout, table);
    const width = layout.headers.length;
    for (let i = 0; i < (table.width > width ? table.size : 0); i++) {
      for (let j = width; j < table.width; j++) {
        const cell = table.cell(i, j);
        if (cell.trim() !== '') problems.add(table.rows[i]!, `(column ${j + 1})`, `This row has more cells than the header row (${width} columns)`, cell);
      }
    }
    const dateColumns = layout.def.columns.filter((c) => DATE_KINDS.has(c.rule.kind) && layout.index.has(c.name));
    dates.learn(
      table,
      dateColumns.map((c) => ({ index: layout.index.get(c.name)!, name: c.name })),
    );
    for (const c of layout.def.columns) {
      const j = layout.index.get(c.name);
      if (j === undefined) continue;
      const values: CellValue[] = new Array(table.size);
      const fallback = DEFAULTS[c.rule.kind]?.(c) ?? null;
      for (let i = 0; i < table.size; i++) {
        // csv-parse trims around fields; spaces inside quotes ("  Smith ") are trimmed here.
        const raw = table.cell(i, j).trim();
        if (raw === '') {
          if (c.required && c.alternative === undefined) problems.add(table.rows[i]!, c.name, `${c.name} is required`);
          values[i] = fallback;
          continue;
        }
        const result = parseCell(c, raw, { row: table.rows[i]!, dates });
        if (result.ok) values[i] = result.value;
        else {
          // An SSN, even a mistyped one, is never echoed back or stored with the upload's problems.
          problems.add(table.rows[i]!, c.name, result.message, c.rule.kind === 'ssn' ? null : raw);
          values[i] = null;
        }
      }
      sheet.parsed.set(c.name, values);
    }
    // A required column with an alternative (cohortNumber, or cohortName) needs one of the two per row.
    for (const c of layout.def.columns) {
      if (!c.required || c.alternative === undefined) continue;
      const [j, k] = [layout.index.get(c.name), layout.index.get(c.alternative)];
      const blank = (col: number | undefined, i: number) => col === undefined || table.cell(i, col).trim() === '';
      for (let i = 0; i < table.size; i++) {
        if (blank(j, i) && blank(k, i)) problems.add(table.rows[i]!, j !== undefined ? c.name : c.alternative, `${c.name} is required (or ${c.alternative})`);
      }
    }
    return sheet;
  }
}
