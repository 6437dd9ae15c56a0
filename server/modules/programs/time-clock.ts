// A program's time-clock rules (decision 050): versions by date, the rules in force, and a new version saved.
import {
  NEW_PROGRAM_TIME_CLOCK,
  TIME_CLOCK_PRESETS,
  type MissingCheckOutPolicy,
  type RoundingMode,
  type TimeClockInput,
  type TimeClockPolicy,
  type TimeClockPreset,
  type TimeClockRules,
  type TimeClockSaved,
  type TimeClockVersion,
} from '../../../common/time-clock.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  countStudentsWithRecordsFrom,
  selectProgram,
  selectProgramForUpdate,
  selectTimeClockVersions,
  upsertTimeClockVersion,
  type TimeClockVersionRow,
} from './queries.ts';

type Ctx = { actorId: number; ip: string | null };

function toVersion(r: TimeClockVersionRow): TimeClockVersion {
  return {
    missingCheckOut: r.missingCheckOut as MissingCheckOutPolicy,
    rounding: r.rounding as RoundingMode,
    roundingMinutes: r.roundingMinutes,
    graceMinutes: r.graceMinutes,
    mealDeduction: r.mealAfterMinutes != null && r.mealMinutes != null ? { afterMinutes: r.mealAfterMinutes, minutes: r.mealMinutes } : null,
    dailyMaxMinutes: r.dailyMaxMinutes,
    weeklyMaxMinutes: r.weeklyMaxMinutes,
    effectiveFrom: r.effectiveFrom,
    createdAt: r.createdAt.toISOString(),
    createdByName: r.createdByName,
  };
}

const rulesOf = (v: TimeClockRules): TimeClockRules => ({
  missingCheckOut: v.missingCheckOut,
  rounding: v.rounding,
  roundingMinutes: v.roundingMinutes,
  graceMinutes: v.graceMinutes,
  mealDeduction: v.mealDeduction,
  dailyMaxMinutes: v.dailyMaxMinutes,
  weeklyMaxMinutes: v.weeklyMaxMinutes,
});

/**
 * A program's time-clock rules by date, for the ledger: its versions in date order, led by the
 * rules from the beginning: its own (programs that existed at migration 0026 have Muster's old
 * behaviour there) or, without one, the new-program defaults. One read per program.
 */
export async function timeClockVersions(db: DbOrTx, programId: number): Promise<(TimeClockRules & { effectiveFrom: string | null })[]> {
  const versions = (await selectTimeClockVersions(db, programId)).map((r) => ({ ...rulesOf(toVersion(r)), effectiveFrom: r.effectiveFrom }));
  return versions[0]?.effectiveFrom === null ? versions : [{ ...NEW_PROGRAM_TIME_CLOCK, effectiveFrom: null }, ...versions];
}

async function schoolToday(db: DbOrTx, clock: Clock): Promise<string> {
  return localDate(clock.now(), (await getSettings(db)).attendance.timeZone);
}

/** The rules in force on the date among versions in date order (none in force: the new-program defaults). */
function inForceOn(versions: TimeClockVersion[], date: string): TimeClockVersion | null {
  let found: TimeClockVersion | null = null;
  for (const v of versions) if (v.effectiveFrom == null || v.effectiveFrom <= date) found = v;
  return found;
}

async function timeClockPolicyOf(db: DbOrTx, programId: number, today: string): Promise<TimeClockPolicy> {
  const versions = (await selectTimeClockVersions(db, programId)).map(toVersion);
  const current = inForceOn(versions, today);
  return {
    programId,
    ...rulesOf(current ?? NEW_PROGRAM_TIME_CLOCK),
    effectiveFrom: current?.effectiveFrom ?? null,
    isSet: current != null,
    versions: [...versions].reverse(),
    today,
  };
}

/** GET /api/programs/{id}/time-clock: the rules in force today (school time) and every version; 404 for no such program. */
export async function getTimeClockPolicy(db: DbOrTx, programId: number, clock: Clock): Promise<TimeClockPolicy> {
  if (!(await selectProgram(db, programId))) throw notFound('Program');
  return timeClockPolicyOf(db, programId, await schoolToday(db, clock));
}

/** GET /api/programs/{id}/time-clock/impact: how many students' days saving from that date recomputes. */
export async function timeClockImpact(db: DbOrTx, programId: number, effectiveFrom: string): Promise<{ effectiveFrom: string; recomputedStudents: number }> {
  if (!(await selectProgram(db, programId))) throw notFound('Program');
  return { effectiveFrom, recomputedStudents: await countStudentsWithRecordsFrom(db, programId, effectiveFrom) };
}

/**
 * PUT /api/programs/{id}/time-clock: a version of the rules from effectiveFrom (default today in the
 * school's time zone), replacing one saved for the same date. The ledger recomputes on read, so
 * nothing else is written; back-dated, it recomputes the days of the program's students with
 * records from that date, and the audit entry says how many (old values: the rules in force on
 * that date until now).
 */
export async function setTimeClockPolicy(db: Db, programId: number, input: TimeClockInput, ctx: Ctx & { clock: Clock }): Promise<TimeClockSaved> {
  const today = await schoolToday(db, ctx.clock);
  const effectiveFrom = input.effectiveFrom ?? today;
  return db.transaction(async (tx) => {
    // Locks the program: two saves apply one after the other.
    if (!(await selectProgramForUpdate(tx, programId))) throw notFound('Program');
    const before = inForceOn((await selectTimeClockVersions(tx, programId)).map(toVersion), effectiveFrom);
    const rules = rulesOf(input);
    await upsertTimeClockVersion(tx, programId, effectiveFrom, {
      missingCheckOut: rules.missingCheckOut,
      rounding: rules.rounding,
      roundingMinutes: rules.roundingMinutes,
      graceMinutes: rules.graceMinutes,
      mealAfterMinutes: rules.mealDeduction?.afterMinutes ?? null,
      mealMinutes: rules.mealDeduction?.minutes ?? null,
      dailyMaxMinutes: rules.dailyMaxMinutes,
      weeklyMaxMinutes: rules.weeklyMaxMinutes,
      createdBy: ctx.actorId,
    });
    const recomputedStudents = await countStudentsWithRecordsFrom(tx, programId, effectiveFrom);
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Update',
      tableName: 'program_time_clock_versions',
      recordId: programId,
      ipAddress: ctx.ip,
      oldValues: { ...rulesOf(before ?? NEW_PROGRAM_TIME_CLOCK), effectiveFrom: before?.effectiveFrom ?? null, isSet: before != null },
      newValues: { ...rules, effectiveFrom, recomputedStudents },
    });
    return { ...(await timeClockPolicyOf(tx, programId, today)), recomputedStudents };
  });
}

/** GET /api/time-clock/presets: named starting points; the school confirms its own board's rules. */
export function listTimeClockPresets(): TimeClockPreset[] {
  return [...TIME_CLOCK_PRESETS];
}
