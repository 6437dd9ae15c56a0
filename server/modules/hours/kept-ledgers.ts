// Ledgers kept as records are written (docs/decisions/056-kept-ledger-totals.md): each student's walk
// is kept through a day two days before the school's today, with running figures per day, so that a
// compliance read walks only the days since and looks up ranges instead of walking every student's
// whole history. The rule stays in computeLedger: what is kept is its output.
import type { LedgerCarry } from '../../../common/hours.ts';
import type { Settings } from '../../../common/settings.ts';
import { addDays } from '../../../common/dates.ts';
import type { DbOrTx } from '../../db/client.ts';
import { localDate } from '../../lib/school-time.ts';
import { gapOf, isAttendanceDay } from './ledger.ts';
import type { LedgerDayRow } from './ledger-types.ts';
import { ledgersFor, type StudentLedger } from './ledgers.ts';
import { selectLedgerStudentsById, type LedgerStudentRow } from './queries.ts';
import {
  SUM_KEYS,
  countStudentsToRecompute,
  selectKeptStates,
  selectStudentsToKeep,
  selectSumsAt,
  writeKept,
  type DaySums,
  type KeptState,
  type KeptWrite,
  type SumKey,
} from './kept-ledger-queries.ts';
import { getSettings } from '../settings/service.ts';
import { sliceYielder } from '../../lib/event-loop-turns.ts';
import { giveWay } from '../../lib/give-way.ts';
import { analyzeIfChanged, analyzeTables } from '../../db/planner-statistics.ts';
import { LEDGER_BATCH_STUDENTS } from './ledgers.ts';

/**
 * Days are kept once they are this many days before the school's today. Writes to earlier days mark
 * the students stale (migration 0029's triggers mark from the day before today on, one day of slack:
 * a write in flight at midnight is never missed by a refresher); today and yesterday are walked on read.
 */
const KEEP_LAG_DAYS = 2;
export const keepHorizon = (today: string) => addDays(today, -KEEP_LAG_DAYS);

const NO_SUMS = { ...(Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Record<(typeof SUM_KEYS)[number], number>), lastAttended: null } satisfies DaySums;

/** The running figures a carry stands at: its totals without the opening balance's. */
function sumsOfCarry(c: LedgerCarry): DaySums {
  const sums: DaySums = { ...NO_SUMS, gapMinutes: c.gapMinutes, lastAttended: c.lastDateOfAttendance };
  for (const k of SUM_KEYS) if (k !== 'gapMinutes') sums[k] = c.totals[k];
  sums.scheduledMinutes -= c.totals.openingScheduledMinutes;
  sums.creditedMinutes -= c.totals.openingCreditedMinutes;
  return sums;
}

/** Adds a day to running figures; false (and nothing added) for a day with nothing in it. */
function addDay(run: DaySums, d: LedgerDayRow): boolean {
  const gap = gapOf(d);
  let any = gap !== 0;
  for (const k of SUM_KEYS) if (k !== 'gapMinutes' && d[k] !== 0) any = true;
  if (!any) return false;
  for (const k of SUM_KEYS) if (k !== 'gapMinutes') run[k] += d[k];
  run.gapMinutes += gap;
  if (isAttendanceDay(d)) run.lastAttended = d.date;
  return true;
}

/** The running figures after each day of a walk that starts at `start` (days with nothing are left out). */
function runningDays(ledger: StudentLedger, start: DaySums): (DaySums & { day: string })[] {
  const rows: (DaySums & { day: string })[] = [];
  const run = { ...start };
  for (const d of ledger.days) if (addDay(run, d)) rows.push({ ...run, day: d.date });
  return rows;
}

/**
 * A student's figures over days: running through any date, from what is kept and what was walked
 * since; `K`: the figures the read asked for.
 */
export type KeptLedger<K extends SumKey = SumKey> = StudentLedger & { sumsAt(date: string): Pick<DaySums, K> };

/** Sums through `date` from a walk's days on top of `start` (the figures before the walk's first day). */
function sumsFromDays(ledger: StudentLedger, start: DaySums, date: string): DaySums {
  const run = { ...start };
  for (const d of ledger.days) {
    if (d.date > date) break;
    addDay(run, d);
  }
  return run;
}

/** The figures of the days after `before` through `through` (two running sums' difference). */
export function sumsBetween(before: DaySums, through: DaySums): DaySums {
  const out = { ...through };
  for (const k of SUM_KEYS) out[k] -= before[k];
  return out;
}

const startOfFullWalk = (l: StudentLedger): DaySums => ({ ...NO_SUMS, lastAttended: l.openingLastDateOfAttendance ?? null });

/**
 * Bring these students' kept ledgers to `through`: a whole walk for a student never kept or marked
 * stale, the days since for the others. Answers each student's state after it (a student whose
 * write lost to a concurrent one, or who has a transcript, keeps their old state).
 */
async function refreshKeptLedgers(
  db: DbOrTx,
  list: LedgerStudentRow[],
  through: string,
  timeZone: string,
  now: Date,
  settings: Settings,
  counted?: { dayRows: number },
): Promise<Map<number, KeptState>> {
  // Heavy work's statements wait their turn behind the requests being answered (lib/give-way.ts).
  await giveWay();
  const states = new Map(
    (
      await selectKeptStates(
        db,
        list.map((s) => s.id),
      )
    ).map((s) => [s.studentId, s]),
  );
  const whole = list.filter((s) => isStale(states.get(s.id)));
  const behind = list.filter((s) => !isStale(states.get(s.id)) && states.get(s.id)!.validThrough! < through);
  const carries = new Map(behind.map((s) => [s.id, states.get(s.id)!.carry!]));
  const [wholeLedgers, behindLedgers] = await Promise.all([
    wholeLedgersFor(db, whole, through, timeZone, now, settings),
    behind.length ? ledgersFor(db, behind, through, timeZone, now, carries, settings) : new Map<number, StudentLedger>(),
  ]);
  const writes: KeptWrite[] = [];
  const pause = sliceYielder();
  const plan = async (ledgers: Map<number, StudentLedger>, resumed: boolean) => {
    for (const [id, l] of ledgers) {
      await pause();
      // A transcript has no walk to keep; a meeting not ended by now (a class past midnight) waits.
      if (!l.carry || l.days.some((d) => d.pendingMinutes > 0)) continue;
      const state = states.get(id)!;
      const start = resumed ? sumsOfCarry(state.carry!) : startOfFullWalk(l);
      writes.push({
        studentId: id,
        version: state.version,
        replaceFrom: resumed ? addDays(state.validThrough!, 1) : '-infinity',
        through,
        carry: l.carry,
        days: runningDays(l, start),
      });
    }
  };
  await plan(wholeLedgers, false);
  await plan(behindLedgers, true);
  const { written, dayRows } = await writeKept(db, writes, now);
  if (counted) counted.dayRows += dayRows;
  for (const w of writes)
    if (written.has(w.studentId)) states.set(w.studentId, { ...states.get(w.studentId)!, validThrough: w.through, staleFrom: null, carry: w.carry });
  return states;
}

/**
 * Whole walks, at most LEDGER_BATCH_STUDENTS at a time: a read's batch may be larger than that when
 * its students are kept (a few days each), and whole histories of all of them would not fit at once.
 */
async function wholeLedgersFor(db: DbOrTx, list: LedgerStudentRow[], asOf: string, timeZone: string, now: Date, settings: Settings) {
  const out = new Map<number, StudentLedger>();
  for (let i = 0; i < list.length; i += LEDGER_BATCH_STUDENTS)
    for (const [id, l] of await ledgersFor(db, list.slice(i, i + LEDGER_BATCH_STUDENTS), asOf, timeZone, now, undefined, settings)) out.set(id, l);
  return out;
}

const isStale = (s: KeptState | undefined) => !s || s.staleFrom != null || s.carry == null || s.validThrough == null;

/** The dates each student's running figures are wanted at, and which figures. */
export type SumsWanted<S, K extends SumKey> = { dates: (s: S) => string[] | Promise<string[]>; keys?: readonly K[] };

/**
 * Ledgers of several students as of asOf, as ledgersFor gives them, from their kept ledgers: kept
 * ones walk only the days since; `sums` names the dates each student's running figures are wanted
 * at, and which figures (looked up in one read). A date before the keep horizon (a report of the
 * past), or another time zone than the school's, walks from the start, as before.
 */
export async function keptLedgersFor<S extends LedgerStudentRow, K extends SumKey = SumKey>(
  db: DbOrTx,
  list: S[],
  asOf: string,
  timeZone: string,
  now: Date,
  sums?: SumsWanted<S, K>,
  settings?: Settings,
): Promise<Map<number, KeptLedger<K>>> {
  const school = settings ?? (await getSettings(db));
  const horizon = keepHorizon(localDate(now, timeZone));
  const out = new Map<number, KeptLedger<K>>();
  const walkedWhole = (l: StudentLedger): KeptLedger<K> => Object.assign(l, { sumsAt: (date: string) => sumsFromDays(l, startOfFullWalk(l), date) });
  // Kept ledgers are on the school's clock: a preview on another zone (Settings' time-zone change) walks from the start.
  if (asOf <= horizon || timeZone !== school.attendance.timeZone) {
    for (const [id, l] of await ledgersFor(db, list, asOf, timeZone, now, undefined, school)) out.set(id, walkedWhole(l));
    return out;
  }
  const states = await refreshKeptLedgers(db, list, horizon, timeZone, now, school);
  const kept = list.filter((s) => !isStale(states.get(s.id)));
  const unkept = list.filter((s) => isStale(states.get(s.id)));
  const dates = sums ? kept.map(sums.dates) : kept.map(() => []);
  // Most reads know their dates at once: no promise per student then.
  const wanted = dates.some((d) => d instanceof Promise) ? await Promise.all(dates) : (dates as string[][]);
  const lookups = kept.flatMap((s, i) => {
    const through = states.get(s.id)!.validThrough!;
    return wanted[i]!.filter((date) => date < through).map((date) => ({ studentId: s.id, date }));
  });
  // The kept figures are looked up while the days since are walked: one wait less per batch.
  await giveWay();
  const [keptLedgers, unkeptLedgers, looked] = await Promise.all([
    kept.length
      ? ledgersFor(db, kept, asOf, timeZone, now, new Map(kept.map((s) => [s.id, states.get(s.id)!.carry!])), school)
      : new Map<number, StudentLedger>(),
    wholeLedgersFor(db, unkept, asOf, timeZone, now, school),
    selectSumsAt(db, lookups, sums?.keys),
  ]);
  for (const [id, l] of unkeptLedgers) out.set(id, walkedWhole(l));
  for (const s of kept) {
    const l = keptLedgers.get(s.id)!;
    const state = states.get(s.id)!;
    const base = sumsOfCarry(state.carry!);
    out.set(
      s.id,
      Object.assign(l, {
        sumsAt: (date: string): Pick<DaySums, K> =>
          date >= state.validThrough! ? sumsFromDays(l, base, date) : (looked.get(`${s.id}|${date}`) ?? startOfFullWalk(l)),
      }),
    );
  }
  return out;
}

/** How long one run of the refresher works before it lets the next run (a minute later) go on. */
const REFRESH_RUN_MS = 20_000;

/**
 * The refresher (a job, every minute, one run at a time across instances): recomputes the students
 * a write marked stale (a policy change marks a whole program), builds the ones never kept, and
 * after the school's midnight walks everyone's kept ledger on to the new horizon. Reads never wait
 * for it: a read recomputes what is still stale in its own scope.
 */
export async function refreshStaleLedgers(db: DbOrTx, now: () => Date): Promise<{ refreshed: number; remaining: number }> {
  const settings = await getSettings(db);
  const { timeZone } = settings.attendance;
  const started = now();
  const horizon = keepHorizon(localDate(started, timeZone));
  let refreshed = 0;
  const counted = { dayRows: 0 };
  const pause = sliceYielder();
  while (now().getTime() - started.getTime() < REFRESH_RUN_MS) {
    const ids = await selectStudentsToKeep(db, horizon, LEDGER_BATCH_STUDENTS);
    if (ids.length === 0) break;
    const states = await refreshKeptLedgers(db, await selectLedgerStudentsById(db, ids), horizon, timeZone, now(), settings, counted);
    const done = ids.filter((id) => !isStale(states.get(id)) && states.get(id)!.validThrough! >= horizon).length;
    refreshed += done;
    // Nothing kept in a whole batch (meetings not ended yet, writes racing): leave it to the next run.
    if (done === 0) break;
    await pause();
  }
  // A first build (or a school-wide change) writes most of the table: leave the planner its statistics.
  if (await analyzeIfChanged(db, 'ledger_days', counted.dayRows)) await analyzeTables(db, ['ledger_state']);
  return { refreshed, remaining: await countStudentsToRecompute(db) };
}

/** GET /api/hours/recomputing: how many students' hours are being recomputed (a policy change, a new installation). */
export async function recomputingHours(db: DbOrTx): Promise<{ students: number }> {
  return { students: await countStudentsToRecompute(db) };
}
