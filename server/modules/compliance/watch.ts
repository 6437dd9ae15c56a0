// The withdrawal watch and the Compliance screen's lists (SAP, excused cap, make-up owed), read from the ledgers.
import { BREAK_MIN_DAYS, DETERMINATION_DAYS, type ComplianceOverview, type WatchRow } from '../../../common/compliance.ts';
import { addDays, daysBetween } from '../../../common/dates.ts';
import { POLICY_DEFAULTS, type ProgramPolicy } from '../../../common/program-policy.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/school-time.ts';
import { listClosures } from '../calendar/service.ts';
import { ledgerAsOf, type KeptLedger, type StudentLedger } from '../hours/service.ts';
import { programPolicy } from '../programs/service.ts';
import { enrolledLedgers } from './enrolled-ledgers.ts';
import type { CandidateRow } from './queries.ts';

/** Days of closures of 5 days or more (scheduled breaks) for a program, through asOf. */
async function breakDates(db: DbOrTx, programId: number | null, asOf: string): Promise<Set<string>> {
  const closures = await listClosures(db, { to: asOf, programId: programId ?? undefined });
  const dates = new Set<string>();
  for (const c of closures) {
    if (c.programId != null && c.programId !== programId) continue;
    if (daysBetween(c.startDate, c.endDate) + 1 < BREAK_MIN_DAYS) continue;
    for (let d = c.startDate; d <= c.endDate; d = addDays(d, 1)) dates.add(d);
  }
  return dates;
}

const URGENCY = { overdue: 0, due: 1, watch: 2 } as const;

/** What the rules read of a student's program, loaded once per read (a school has a few programs, thousands of students). */
type ProgramFacts = { withdrawAfterDays: number; breaks: ReadonlySet<string>; makeUpDeadlineDays: number; makeUpThresholdMinutes: number };

/**
 * The programs' facts for one read: `ready(programId)` loads a program's the first time (a promise
 * then, nothing after), `of(programId)` answers them once ready, so the rules run without an await
 * per student.
 */
function programFacts(db: DbOrTx, asOf: string) {
  const loaded = new Map<number | null, ProgramFacts>();
  const loading = new Map<number | null, Promise<void>>();
  const load = async (programId: number | null) => {
    const [policy, breaks] = await Promise.all([
      programId == null ? Promise.resolve(undefined as ProgramPolicy | undefined) : programPolicy(db, programId),
      breakDates(db, programId, asOf),
    ]);
    loaded.set(programId, {
      withdrawAfterDays: policy?.withdrawAfterDays ?? 14,
      breaks,
      makeUpDeadlineDays: policy?.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays,
      makeUpThresholdMinutes: policy?.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes,
    });
  };
  return {
    ready(programId: number | null): Promise<void> | undefined {
      if (loaded.has(programId)) return undefined;
      if (!loading.has(programId)) loading.set(programId, load(programId));
      return loading.get(programId);
    },
    of: (programId: number | null) => loaded.get(programId)!,
  };
}

const noLeave: ReadonlySet<string> = new Set();

/**
 * The watch's rule for one student, given their ledger and their program's facts: enrolled students
 * without attendance for at least half the program's withdrawAfterDays, counted in calendar days
 * since the LDA (or from the first scheduled day for those who never came) without scheduled breaks
 * of 5+ days and leave days. Students on a leave today are not listed; a leave that ended without a
 * return counts again from its end. The watch and the overview's counts both call it, once per ledger.
 */
function watchRow(student: CandidateRow, ledger: StudentLedger, program: ProgramFacts, asOf: string): WatchRow | null {
  const leaveDays = ledger.leaveDates ?? noLeave;
  if (leaveDays.has(asOf)) return null;
  const base = ledger.lastDateOfAttendance ?? ledger.firstScheduledDate;
  if (!base || base > asOf) return null;
  // Since the LDA: the days after it. Never attended: from the first scheduled day, which was missed too.
  let days = 0;
  for (let d = ledger.lastDateOfAttendance ? addDays(base, 1) : base; d <= asOf; d = addDays(d, 1)) if (!program.breaks.has(d) && !leaveDays.has(d)) days++;
  const { withdrawAfterDays } = program;
  if (days < withdrawAfterDays / 2) return null;
  const determinationDueBy = addDays(base, DETERMINATION_DAYS);
  return {
    studentId: student.id,
    sisStudentId: student.sisStudentId,
    firstName: student.firstName,
    lastName: student.lastName,
    programName: student.programName,
    lastDateOfAttendance: ledger.lastDateOfAttendance,
    daysWithoutAttendance: days,
    determinationDueBy,
    state: days < withdrawAfterDays ? 'watch' : asOf <= determinationDueBy ? 'due' : 'overdue',
  };
}

/**
 * GET /api/compliance/withdrawal-watch: the students the watch's rule lists, most urgent first.
 * `timeZone`: the watch as it would be on another clock, today included (Settings' preview of a
 * time-zone change); absent, the school's.
 */
export async function withdrawalWatch(db: DbOrTx, q: { asOf?: string; programId?: number; timeZone?: string }, clock: Clock): Promise<WatchRow[]> {
  const { asOf, timeZone } = q.timeZone ? { asOf: localDate(clock.now(), q.timeZone), timeZone: q.timeZone } : await ledgerAsOf(db, clock, q.asOf);
  const programs = programFacts(db, asOf);
  const rows: WatchRow[] = [];
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now() })) {
    const loading = programs.ready(student.programId);
    if (loading) await loading;
    const row = watchRow(student, ledger, programs.of(student.programId), asOf);
    if (row) rows.push(row);
  }
  return rows.sort((a, b) => URGENCY[a.state] - URGENCY[b.state] || b.daysWithoutAttendance - a.daysWithoutAttendance || a.lastName.localeCompare(b.lastName));
}

/** The running figures the overview reads at earlier dates. */
type OverviewSums = 'creditedMinutes' | 'gapMinutes';

/** Credited minutes per day over the last 28 days (from `paceFrom`): the pace a projection uses. */
function recentPace(ledger: KeptLedger<OverviewSums>, asOf: string, paceFrom: string): number {
  return (ledger.sumsAt(asOf).creditedMinutes - ledger.sumsAt(paceFrom).creditedMinutes) / 28;
}

/** The Compliance screen's lists (SAP, excused cap, make-up owed) and the counts of its tabs. */
export async function complianceOverview(db: DbOrTx, q: { asOf?: string; programId?: number }, clock: Clock): Promise<ComplianceOverview> {
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const out: ComplianceOverview = {
    asOf,
    counts: { watch: 0, due: 0, overdue: 0, sapNotMet: 0, sapUpcoming: 0, excusedCap: 0, makeUpOwed: 0 },
    sap: [],
    excusedCap: [],
    makeUpOwed: [],
  };
  const programs = programFacts(db, asOf);
  const paceFrom = addDays(asOf, -28);
  // Scheduled time missed through this date is owed by now: the program's make-up deadline before asOf.
  const cutoffs = new Map<number | null, string>();
  const cutoffOf = (programId: number | null) => {
    let cutoff = cutoffs.get(programId);
    if (cutoff === undefined) cutoffs.set(programId, (cutoff = addDays(asOf, -programs.of(programId).makeUpDeadlineDays)));
    return cutoff;
  };
  const sums = {
    dates: (s: CandidateRow): string[] | Promise<string[]> => {
      const loading = programs.ready(s.programId);
      return loading ? loading.then(() => [asOf, paceFrom, cutoffOf(s.programId)]) : [asOf, paceFrom, cutoffOf(s.programId)];
    },
    keys: ['creditedMinutes', 'gapMinutes'] as OverviewSums[],
  };
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now(), sums })) {
    const loading = programs.ready(student.programId);
    if (loading) await loading;
    const program = programs.of(student.programId);
    // The watch's counts from the same ledger: each ledger is computed once per overview.
    const watched = watchRow(student, ledger, program, asOf);
    if (watched) out.counts[watched.state]++;
    const { id: studentId, sisStudentId, firstName, lastName, programName } = student;
    const pace = recentPace(ledger, asOf, paceFrom);
    for (const c of ledger.sapCheckpoints) {
      if (c.status === 'not_met') out.sap.push({ studentId, sisStudentId, firstName, lastName, programName, ...c, projectedOn: null });
      else if (c.status === 'pending' && pace > 0) {
        const daysToGo = Math.ceil((c.atHours * 60 - ledger.totals.creditedMinutes) / pace);
        if (daysToGo <= 30)
          out.sap.push({
            studentId,
            sisStudentId,
            firstName,
            lastName,
            programName,
            atHours: c.atHours,
            status: c.status,
            evaluatedOn: c.evaluatedOn,
            attendancePercent: ledger.attendancePercent,
            projectedOn: addDays(asOf, Math.max(0, daysToGo)),
          });
      }
    }
    for (const p of ledger.paymentPeriods) {
      if (p.excusedCapMinutes > 0 && p.excusedCreditedMinutes >= p.excusedCapMinutes * 0.8 && p.status !== 'completed') {
        out.excusedCap.push({
          studentId,
          sisStudentId,
          firstName,
          lastName,
          programName,
          paymentPeriod: p.number,
          excusedCreditedMinutes: p.excusedCreditedMinutes,
          excusedCapMinutes: p.excusedCapMinutes,
          excusedUncreditedMinutes: ledger.totals.excusedUncreditedMinutes,
        });
      }
    }
    const deadlineDays = program.makeUpDeadlineDays;
    const cutoff = cutoffOf(student.programId);
    // Scheduled time neither attended nor credited as excused (the cap's credit is not owed), through the cutoff.
    const missed = ledger.sumsAt(cutoff).gapMinutes;
    const oldest = ledger.firstGapDate != null && ledger.firstGapDate <= cutoff ? ledger.firstGapDate : null;
    const owed = missed - ledger.totals.makeUpMinutes;
    // A few minutes late here and there is not a make-up case: the program's threshold says from when.
    if (owed > 0 && owed >= program.makeUpThresholdMinutes)
      out.makeUpOwed.push({
        studentId,
        sisStudentId,
        firstName,
        lastName,
        programName,
        owedMinutes: owed,
        oldestMissedOn: oldest,
        makeUpDeadlineDays: deadlineDays,
        dueBy: oldest ? addDays(oldest, deadlineDays) : null,
      });
  }
  out.counts.sapNotMet = out.sap.filter((s) => s.status === 'not_met').length;
  out.counts.sapUpcoming = out.sap.length - out.counts.sapNotMet;
  out.counts.excusedCap = out.excusedCap.length;
  out.counts.makeUpOwed = out.makeUpOwed.length;
  return out;
}
