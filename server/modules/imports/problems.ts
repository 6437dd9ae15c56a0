import type { RowProblem } from '../../lib/errors.ts';

/** Longest value or column name echoed back in a problem: a huge cell must not become a huge answer. */
const CLIP = 200;
/** Problems kept in memory and answered; the count goes on past it. */
const MAX_PROBLEMS_ANSWERED = 1000;

/** Strip what PostgreSQL's jsonb refuses (NUL) and other control characters, and shorten. */
export function clip(v: string, max = CLIP): string {
  // eslint-disable-next-line no-control-regex
  const clean = v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Every problem found in a file, with the row a person sees (header = 1) and the column. */
export class Problems {
  private readonly items: RowProblem[] = [];
  count = 0;
  /** Names a column as the file's header spells it (program_id rather than programId). */
  spelling: (column: string) => string = (c) => c;

  add(row: number, column: string, message: string, value?: string | null): void {
    this.count += 1;
    if (this.items.length >= MAX_PROBLEMS_ANSWERED * 4) return;
    const p: RowProblem = { row, column: clip(this.spelling(column), 100), message: clip(message, 500) };
    if (value != null && value !== '') p.value = clip(value);
    this.items.push(p);
  }

  get any(): boolean {
    return this.count > 0;
  }

  /** In file order (row, then the order found), at most MAX_PROBLEMS_ANSWERED. */
  list(): RowProblem[] {
    return this.items
      .map((p, i) => ({ p, i }))
      .sort((a, b) => a.p.row - b.p.row || a.i - b.i)
      .slice(0, MAX_PROBLEMS_ANSWERED)
      .map(({ p }) => p);
  }
}
