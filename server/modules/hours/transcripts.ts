import { frozenHoursSchema, type FrozenHours } from '../../../common/hours.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Ledger } from './ledger-types.ts';
import { selectLedgerStudent, type LedgerStudentRow } from './queries.ts';
import { insertTranscript, selectExitedWithoutTranscript, selectTranscripts } from './balance-queries.ts';

// Transcripts of hours (COMPLIANCE.md, "Retention"): retention may remove a student's attendance
// detail once they left long enough ago, never their hours. Before it does, the ledger of their
// exit is frozen here, and every reader of ledgers (hours, time card, exports, reports) gets it back.

type StudentLedgerLike = Ledger & {
  openingLastDateOfAttendance?: string | null;
  withdrawalDate: string | null;
  expectedEndDate: string | null;
  transcript?: { exitDate: string; frozenAt: string };
};

/** How many students one retention run freezes at most: the job runs daily and catches up. */
const TRANSCRIPTS_PER_RUN = 500;

function frozenFrom(l: StudentLedgerLike): FrozenHours {
  return {
    startDate: l.startDate,
    lastDateOfAttendance: l.lastDateOfAttendance,
    withdrawalDate: l.withdrawalDate,
    expectedEndDate: l.expectedEndDate,
    totals: l.totals,
    attendancePercent: l.attendancePercent,
    paymentPeriods: l.paymentPeriods,
    sapCheckpoints: l.sapCheckpoints,
  };
}

type Transcript = { exitDate: string; frozenAt: string; hours: FrozenHours };

/** The transcripts of these students, by id (none for most). */
export async function transcriptsOf(db: DbOrTx, studentIds: number[]): Promise<Map<number, Transcript>> {
  const rows = await selectTranscripts(db, studentIds);
  return new Map(rows.map((r) => [r.studentId, { exitDate: r.exitDate, frozenAt: r.frozenAt.toISOString(), hours: frozenHoursSchema.parse(r.ledger) }]));
}

/** A ledger read back from a transcript: the frozen figures, no days. */
export function ledgerOfTranscript(t: Transcript): StudentLedgerLike {
  return { ...t.hours, days: [], firstScheduledDate: null, firstGapDate: null, transcript: { exitDate: t.exitDate, frozenAt: t.frozenAt } };
}

/**
 * Freeze the hours of students who left before `before` and have none frozen yet (at most
 * TRANSCRIPTS_PER_RUN): each one's ledger as of their exit (or their last record, if later).
 * Run in the retention job's transaction, before it removes their records. Returns how many.
 */
export async function freezeExitedStudents(
  tx: DbOrTx,
  before: string,
  now: Date,
  ledgerOf: (student: LedgerStudentRow, asOf: string) => Promise<StudentLedgerLike>,
): Promise<number> {
  const exited = await selectExitedWithoutTranscript(tx, before, TRANSCRIPTS_PER_RUN);
  for (const x of exited) {
    const student = await selectLedgerStudent(tx, x.studentId);
    if (!student) continue;
    const asOf = x.lastRecordDate && x.lastRecordDate > x.exitDate ? x.lastRecordDate : x.exitDate;
    await insertTranscript(tx, { studentId: x.studentId, exitDate: x.exitDate, ledger: frozenFrom(await ledgerOf(student, asOf)), now });
  }
  return exited.length;
}
