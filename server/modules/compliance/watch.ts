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
import { cached, enrolledLedgers } from './enrolled-ledgers.ts';
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

/**
 * The watch's rule for one student, given their ledger: enrolled students without attendance for
 * at least half the program's withdrawAfterDays, counted in calendar days since the LDA (or from
 * the first scheduled day for those who never came) without scheduled breaks of 5+ days and leave
 * days. Students on a leave today are not listed; a leave that ended without a return counts
 * again from its end. The watch and the overview's counts both call it, once per ledger.
 */
function watchRules(db: DbOrTx, asOf: string) {
  const policyOf = cached((programId: number | null) => (programId == null ? Promise.resolve(undefined) : programPolicy(db, programId)));
  const breaksOf = cached((programId: number | null) => breakDates(db, programId, asOf));
  const noLeave: ReadonlySet<string> = new Set();
  return async (student: CandidateRow, ledger: StudentLedger): Promise<WatchRow | null> => {
    const leaveDays = ledger.leaveDates ?? noLeave;
    if (leaveDays.has(asOf)) return null;
    const base = ledger.lastDateOfAttendance ?? ledger.firstScheduledDate;
    if (!base || base > asOf) return null;
    const breaks = await breaksOf(student.programId);
    // Since the LDA: the days after it. Never attended: from the first scheduled day, which was missed too.
    let days = 0;
    for (let d = ledger.lastDateOfAttendance ? addDays(base, 1) : base; d <= asOf; d = addDays(d, 1)) if (!breaks.has(d) && !leaveDays.has(d)) days++;
    const withdrawAfterDays = (await policyOf(student.programId))?.withdrawAfterDays ?? 14;
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
  };
}

/**
 * GET /api/compliance/withdrawal-watch: the students the watch's rule lists, most urgent first.
 * `timeZone`: the watch as it would be on another clock, today included (Settings' preview of a
 * time-zone change); absent, the school's.
 */
export async function withdrawalWatch(db: DbOrTx, q: { asOf?: string; programId?: number; timeZone?: string }, clock: Clock): Promise<WatchRow[]> {
  const { asOf, timeZone } = q.timeZone ? { asOf: localDate(clock.now(), q.timeZone), timeZone: q.timeZone } : await ledgerAsOf(db, clock, q.asOf);
  const watchRowOf = watchRules(db, asOf);
  const rows: WatchRow[] = [];
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now() })) {
    const row = await watchRowOf(student, ledger);
    if (row) rows.push(row);
  }
  return rows.sort((a, b) => URGENCY[a.state] - URGENCY[b.state] || b.daysWithoutAttendance - a.daysWithoutAttendance || a.lastName.localeCompare(b.lastName));
}

/** The running figures the overview reads at earlier dates. */
type OverviewSums = 'creditedMinutes' | 'gapMinutes';

/** Credited minutes per day over the last 28 days: the pace a projection uses. */
function recentPace(ledger: KeptLedger<OverviewSums>, asOf: string): number {
  return (ledger.sumsAt(asOf).creditedMinutes - ledger.sumsAt(addDays(asOf, -28)).creditedMinutes) / 28;
}

/** The Compliance screen's lists (SAP, excused cap, make-up owed) and the counts of its tabs. */
export async function complianceOverview(db: DbOrTx, q: { asOf?: string; programId?: number }, clock: Clock): Promise<ComplianceOverview> {
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const policyOf = cached((programId: number | null) =>
    programId == null ? Promise.resolve(undefined as ProgramPolicy | undefined) : programPolicy(db, programId),
  );
  const out: ComplianceOverview = {
    asOf,
    counts: { watch: 0, due: 0, overdue: 0, sapNotMet: 0, sapUpcoming: 0, excusedCap: 0, makeUpOwed: 0 },
    sap: [],
    excusedCap: [],
    makeUpOwed: [],
  };
  const watchRowOf = watchRules(db, asOf);
  const makeUpPolicy = async (programId: number | null) => {
    const policy = await policyOf(programId);
    return {
      deadlineDays: policy?.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays,
      threshold: policy?.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes,
    };
  };
  const sums = {
    dates: async (s: CandidateRow) => [asOf, addDays(asOf, -28), addDays(asOf, -(await makeUpPolicy(s.programId)).deadlineDays)],
    keys: ['creditedMinutes', 'gapMinutes'] as OverviewSums[],
  };
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now(), sums })) {
    // The watch's counts from the same ledger: each ledger is computed once per overview.
    const watched = await watchRowOf(student, ledger);
    if (watched) out.counts[watched.state]++;
    const ref = {
      studentId: student.id,
      sisStudentId: student.sisStudentId,
      firstName: student.firstName,
      lastName: student.lastName,
      programName: student.programName,
    };
    const pace = recentPace(ledger, asOf);
    for (const c of ledger.sapCheckpoints) {
      if (c.status === 'not_met') out.sap.push({ ...ref, ...c, projectedOn: null });
      else if (c.status === 'pending' && pace > 0) {
        const daysToGo = Math.ceil((c.atHours * 60 - ledger.totals.creditedMinutes) / pace);
        if (daysToGo <= 30) out.sap.push({ ...ref, ...c, attendancePercent: ledger.attendancePercent, projectedOn: addDays(asOf, Math.max(0, daysToGo)) });
      }
    }
    for (const p of ledger.paymentPeriods) {
      if (p.excusedCapMinutes > 0 && p.excusedCreditedMinutes >= p.excusedCapMinutes * 0.8 && p.status !== 'completed') {
        const uncredited = ledger.totals.excusedUncreditedMinutes;
        out.excusedCap.push({
          ...ref,
          paymentPeriod: p.number,
          excusedCreditedMinutes: p.excusedCreditedMinutes,
          excusedCapMinutes: p.excusedCapMinutes,
          excusedUncreditedMinutes: uncredited,
        });
      }
    }
    const { deadlineDays, threshold } = await makeUpPolicy(student.programId);
    const cutoff = addDays(asOf, -deadlineDays);
    // Scheduled time neither attended nor credited as excused (the cap's credit is not owed), through the cutoff.
    const missed = ledger.sumsAt(cutoff).gapMinutes;
    const oldest = ledger.firstGapDate != null && ledger.firstGapDate <= cutoff ? ledger.firstGapDate : null;
    const owed = missed - ledger.totals.makeUpMinutes;
    // A few minutes late here and there is not a make-up case: the program's threshold says from when.
    if (owed > 0 && owed >= threshold)
      out.makeUpOwed.push({
        ...ref,
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
