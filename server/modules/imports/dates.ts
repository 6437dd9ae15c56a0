import type { RawTable } from './read-file.ts';

// Dates as spreadsheets write them (decision 047). YYYY-MM-DD is always read. Excel in the US
// writes 8/24/2026 (month/day/year); elsewhere 24/08/2026 (day/month/year). 3/4/2026 is either,
// so the file decides: a date whose first number is over 12 is day/month, whose second is over 12
// is month/day. Ambiguous dates follow the file's unambiguous ones, month/day (the US reading)
// when it has none; a file with both kinds refuses its ambiguous dates, and a date that
// contradicts how an earlier ambiguous one was read (a later part of a large file) is refused.
// Nothing is guessed silently: the result's notes say which formats were read, with an example.

type Order = 'mdy' | 'dmy';
type Format = 'iso' | Order | 'serial';
type Seen = { value: string; iso: string; row: number; column: string };
type DateResult = { ok: true; value: string } | { ok: false; message: string };

/** 8/24/2026, 24.08.2026 or 24-08-2026 (one separator), then whatever follows (a time). */
const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2,4})(?=$|[ T])(.*)$/;
/** Excel's serial day number (days since 1899-12-30), as a cell formatted General gives it: 1927–2173. */
const SERIAL = /^(\d{5})(\.\d+)?$/;
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');
const ORDER_TEXT: Record<Order, string> = { mdy: 'month/day/year (US)', dmy: 'day/month/year' };
const at = (s: Seen) => `row ${s.row}, ${s.column}`;

function realDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** An Excel serial day as YYYY-MM-DD (HH:MM:SS when it has a fraction of a day). */
function fromSerial(days: number, fraction: string | undefined): string {
  const ms = EXCEL_EPOCH_MS + days * DAY_MS + Math.round(Number(`0${fraction ?? ''}`) * DAY_MS);
  const iso = new Date(ms).toISOString();
  return fraction ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(0, 10);
}

/** How one import reads its dates: one per file, shared by its parts. */
export class DateReading {
  /** The first unambiguous date of each order seen in the file so far. */
  private readonly evidence: Partial<Record<Order, Seen>> = {};
  /** The first ambiguous date read in each order. */
  private readonly ambiguous: Partial<Record<Order, Seen>> = {};
  /** The first date read in each format, for the notes. */
  private readonly used = new Map<Format, Seen>();

  /**
   * Look at a table's (or part's) cells of the date columns before any is read, so every
   * ambiguous date follows the unambiguous ones wherever they are in it.
   */
  learn(table: RawTable, columns: readonly { index: number; name: string }[]): void {
    for (const { index, name } of columns) {
      const cells = table.columns[index] ?? [];
      for (let i = 0; i < cells.length; i++) {
        for (const part of cells[i]!.split(/[\s,;]+/)) {
          const m = NUMERIC_DATE.exec(part.trim());
          if (!m) continue;
          const [p, q] = [Number(m[1]), Number(m[3])];
          const order: Order | null = p > 12 && q <= 12 ? 'dmy' : q > 12 && p <= 12 ? 'mdy' : null;
          if (order && !this.evidence[order]) this.evidence[order] = { value: part.trim(), iso: '', row: table.rows[i]!, column: name };
        }
      }
    }
  }

  /**
   * A cell of a date column with its date part as YYYY-MM-DD (what follows it, a time, kept), or
   * why it cannot be read. A cell that is neither a numeric date nor a serial is answered as it
   * is, for the YYYY-MM-DD reader to accept or refuse.
   */
  normalise(raw: string, row: number, column: string): DateResult {
    const serial = SERIAL.exec(raw);
    if (serial) {
      const value = fromSerial(Number(serial[1]), serial[2]);
      this.note('serial', { value: raw, iso: value.slice(0, 10), row, column });
      return { ok: true, value };
    }
    const m = NUMERIC_DATE.exec(raw);
    if (!m) {
      if (/^\d{4}-\d{2}-\d{2}/.test(raw)) this.note('iso', { value: raw, iso: raw.slice(0, 10), row, column });
      return { ok: true, value: raw };
    }
    const [p, q, year, rest] = [Number(m[1]), Number(m[3]), m[4]!, m[5]!];
    const text = raw.slice(0, raw.length - rest.length);
    if (year.length !== 4) return { ok: false, message: `${column} ${text}: write the year with four digits (such as 8/24/2026) or the date as YYYY-MM-DD` };
    const y = Number(year);
    const asMdy = realDate(y, p, q);
    const asDmy = realDate(y, q, p);
    if (!asMdy && !asDmy) return { ok: false, message: `${column} ${text} is not a date, neither month/day/year nor day/month/year: write it as YYYY-MM-DD` };
    const seen = (iso: string): Seen => ({ value: text, iso, row, column });
    // 5/5/2026 reads the same either way.
    if (asMdy === asDmy) {
      this.note(this.readingOrder() === 'dmy' ? 'dmy' : 'mdy', seen(asMdy!));
      return { ok: true, value: `${asMdy}${rest}` };
    }
    // Only one order makes it a date (24/08/2026, 8/24/2026).
    if (!asMdy || !asDmy) {
      const [order, other]: [Order, Order] = asMdy ? ['mdy', 'dmy'] : ['dmy', 'mdy'];
      const iso = (asMdy ?? asDmy)!;
      const contradicted = this.ambiguous[other];
      if (contradicted) {
        return {
          ok: false,
          message: `${column} ${text} is ${ORDER_TEXT[order]}, but ${contradicted.value} (${at(contradicted)}) was read as ${ORDER_TEXT[other]}: write the dates as YYYY-MM-DD`,
        };
      }
      this.note(order, seen(iso));
      return { ok: true, value: `${iso}${rest}` };
    }
    const order = this.readingOrder();
    if (order === 'mixed') {
      const { mdy, dmy } = this.evidence as Record<Order, Seen>;
      return {
        ok: false,
        message: `${column} ${text} is ambiguous: the file has month/day/year dates (${mdy.value}, ${at(mdy)}) and day/month/year dates (${dmy.value}, ${at(dmy)}); write it as YYYY-MM-DD`,
      };
    }
    const reading = order ?? 'mdy';
    const s = seen((reading === 'dmy' ? asDmy : asMdy)!);
    this.ambiguous[reading] ??= s;
    this.note(reading, s);
    return { ok: true, value: `${s.iso}${rest}` };
  }

  /** How ambiguous dates are read: as the file's unambiguous dates say, null when they say nothing. */
  private readingOrder(): Order | 'mixed' | null {
    const { mdy, dmy } = this.evidence;
    return mdy && dmy ? 'mixed' : dmy ? 'dmy' : mdy ? 'mdy' : null;
  }

  private note(format: Format, s: Seen): void {
    // An ambiguous example says more than an unambiguous one: it shows the choice that was made.
    if (!this.used.has(format) || (format !== 'iso' && format !== 'serial' && this.ambiguous[format] === s)) this.used.set(format, s);
  }

  /** What the import result tells the person: each date format read, with an example from the file. */
  notes(): string[] {
    const out: string[] = [];
    for (const [format, s] of this.used) {
      const example = `${s.value} = ${s.iso} (${at(s)})`;
      if (format === 'iso') out.push(`Dates read as YYYY-MM-DD, such as ${example}.`);
      else if (format === 'serial') out.push(`Excel serial numbers read as dates, such as ${example}.`);
      else {
        const why =
          format === 'dmy'
            ? 'the file writes days over 12 first'
            : this.evidence.mdy
              ? 'the file writes days over 12 second'
              : 'the US order; no date in the file says otherwise';
        out.push(`Dates read as ${ORDER_TEXT[format]}, such as ${example}: ${why}.`);
      }
    }
    return out;
  }
}
