// The time card's days, lines and totals from the ledger (pure); time-card.ts draws them and re-exports these.

import { punchPairs } from '../../../common/attendance.ts';
import type { LedgerDay, PaymentPeriodProgress } from '../../../common/hours.ts';

import { localTimeOfDay } from '../../lib/school-time.ts';

type TimeCardRecord = {
  sessionDate: string;
  courseCode: string;
  status: string;
  scanInTime: Date | null;
  scanOutTime: Date | null;
  /** Staff changed it after capture; the original stays in the record history. */
  corrected: boolean;
  /** Breaks between the check-in and the check-out (ISO instants; endedAt null: never back). */
  breaks?: readonly { startedAt: string; endedAt: string | null }[];
};

type TimeCardMakeUp = { date: string; startTime: string; endTime: string; courseCode: string | null };

/** One sub-line of a day: a record or a make-up session. */
type TimeCardLine = { course: string; inOut: string; status: string };

export type TimeCardDay = LedgerDay & { lines: TimeCardLine[] };

/** The minutes of a day the time-clock rules count in steps (LedgerDay): attended = rounded − deducted − capped. */
export const TIME_CLOCK_MINUTES = [
  'rawMinutes',
  'roundedMinutes',
  'deductedMinutes',
  'cappedMinutes',
  'pendingExceptionMinutes',
  'autoCheckOutMinutes',
] as const;

export type TimeCardTotals = {
  scheduledMinutes: number;
  attendedMinutes: number;
  excusedMinutes: number;
  excusedCreditedMinutes: number;
  excusedUncreditedMinutes: number;
  makeUpMinutes: number;
  creditedMinutes: number;
} & Record<(typeof TIME_CLOCK_MINUTES)[number], number>;

export type TimeCard = {
  /** Null until Settings › System names the school: the card is then titled without it. */
  schoolName: string | null;
  /** School-local 'YYYY-MM-DD HH:MM' and the zone, printed in each page's footer. */
  generatedAt: string;
  timeZone: string;
  student: { id: number; firstName: string; lastName: string; sisStudentId: string | null };
  programName: string | null;
  /** The ledger's first day (enrolment, else the first roster meeting). */
  startDate: string | null;
  from: string;
  to: string;
  days: TimeCardDay[];
  totals: TimeCardTotals;
  /** Everything credited and scheduled from the student's start through `to`. */
  sinceStart: { scheduledMinutes: number; creditedMinutes: number; attendancePercent: number | null };
  paymentPeriods: PaymentPeriodProgress[];
};

export const CORRECTED_MARK = 'corrected*';
export const CORRECTED_NOTE =
  '* Corrected by staff after it was captured. The times shown are the corrected ones; the original times, who changed them, when and why are kept in the record history.';

const hhmm = (instant: Date, timeZone: string) => localTimeOfDay(instant, timeZone);

/**
 * The days of the card: the ledger's days in the range that had anything scheduled, attended,
 * excused, made up or recorded, each with its records and make-up sessions as sub-lines.
 */
export function timeCardDays(days: LedgerDay[], records: TimeCardRecord[], makeUps: TimeCardMakeUp[], timeZone: string): TimeCardDay[] {
  const linesOf = new Map<string, TimeCardLine[]>();
  const add = (date: string, line: TimeCardLine) => (linesOf.get(date) ?? linesOf.set(date, []).get(date)!).push(line);
  for (const r of records) {
    // Every punch pair: "08:00–10:00, 10:10–17:00"; the last without a check-out says so.
    const breaks = (r.breaks ?? []).map((b) => ({ startedAt: Date.parse(b.startedAt), endedAt: b.endedAt == null ? null : Date.parse(b.endedAt) }));
    const inOut = r.scanInTime
      ? punchPairs(r.scanInTime.getTime(), r.scanOutTime?.getTime() ?? null, breaks)
          .map((p) => `${hhmm(new Date(p.in), timeZone)}–${p.out == null ? 'no out' : hhmm(new Date(p.out), timeZone)}`)
          .join(', ')
      : '';
    add(r.sessionDate, { course: r.courseCode, inOut, status: r.corrected ? `${r.status} ${CORRECTED_MARK}` : r.status });
  }
  for (const m of makeUps) add(m.date, { course: m.courseCode ?? 'Make-up', inOut: `${m.startTime.slice(0, 5)}–${m.endTime.slice(0, 5)}`, status: 'make-up' });
  const out: TimeCardDay[] = [];
  for (const d of days) {
    const lines = linesOf.get(d.date) ?? [];
    // A scheduled day nobody recorded is an absence all the same: say so rather than leave it blank.
    if (d.scheduledMinutes > 0 && !lines.some((l) => l.status !== 'make-up')) lines.unshift({ course: '', inOut: '', status: 'no record' });
    // Nothing on the day at all: left off, which leaves every column's sum as it is.
    if (lines.length === 0 && d.attendedMinutes === 0 && d.excusedMinutes === 0 && d.makeUpMinutes === 0 && TIME_CLOCK_MINUTES.every((k) => d[k] === 0))
      continue;
    out.push({ ...d, lines });
  }
  return out;
}

/** The range's totals from its days; excused minutes credited that day are what the cap let count. */
export function timeCardTotals(days: LedgerDay[]): TimeCardTotals {
  const t: TimeCardTotals = {
    scheduledMinutes: 0,
    attendedMinutes: 0,
    excusedMinutes: 0,
    excusedCreditedMinutes: 0,
    excusedUncreditedMinutes: 0,
    makeUpMinutes: 0,
    creditedMinutes: 0,
    ...(Object.fromEntries(TIME_CLOCK_MINUTES.map((k) => [k, 0])) as Record<(typeof TIME_CLOCK_MINUTES)[number], number>),
  };
  for (const d of days) {
    for (const k of TIME_CLOCK_MINUTES) t[k] += d[k];
    const excusedCredited = d.creditedMinutes - d.attendedMinutes - d.makeUpMinutes;
    t.scheduledMinutes += d.scheduledMinutes;
    t.attendedMinutes += d.attendedMinutes;
    t.excusedMinutes += d.excusedMinutes;
    t.excusedCreditedMinutes += excusedCredited;
    t.excusedUncreditedMinutes += d.excusedMinutes - excusedCredited;
    t.makeUpMinutes += d.makeUpMinutes;
    t.creditedMinutes += d.creditedMinutes;
  }
  return t;
}

/** Minutes as h:mm (clock hours are kept in minutes and shown this way, COMPLIANCE.md). */
export function hoursMinutes(minutes: number): string {
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
