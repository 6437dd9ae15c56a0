import { programHoursWarning, type FieldWarning, type Program, type ProgramInput, type ProgramSaved } from '../../../common/programs.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/errors.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { assertCheckpointsWithin, assertProgramHours, num } from './program-hours.ts';
import {
  insertProgram,
  selectPolicyRow,
  selectProgram,
  selectProgramForUpdate,
  selectProgramName,
  selectProgramNames,
  selectPrograms,
  selectProgramHoursBySisId,
  updateProgramRow,
  type ProgramRow,
} from './queries.ts';

// The module's door: the clock-hour policy (policy.ts) and the time-clock rules (time-clock.ts)
// live in their own files.
export { getProgramPolicy, programPolicy, setProgramPolicy } from './policy.ts';
export { getTimeClockPolicy, listTimeClockPresets, setTimeClockPolicy, timeClockImpact, timeClockVersions } from './time-clock.ts';

type Input = ProgramInput;
type Ctx = { actorId: number; ip: string | null };
const UNIQUE = {
  programs_sis_program_id_unique: { field: 'sisProgramId', message: 'Another program already has this SIS program ID' },
  programs_program_code_unique: { field: 'programCode', message: 'Another program already has this program code' },
};

function toProgram(r: ProgramRow): Program {
  return {
    id: r.id,
    programName: r.programName,
    programCode: r.programCode,
    sisProgramId: r.sisProgramId,
    durationHours: num(r.durationHours),
    credentialType: r.credentialType,
    description: r.description,
    status: r.status,
    startDate: r.startDate,
    endDate: r.endDate,
    accreditationBody: r.accreditationBody,
    programDirector: r.programDirector,
    tuitionCost: num(r.tuitionCost),
    capacity: r.capacity,
    campusLocation: r.campusLocation,
    externalProgramId: r.externalProgramId,
    regulatoryCode: r.regulatoryCode,
    syncStatus: r.syncStatus,
  };
}
const toColumns = (i: Input, hours: number | null) => ({ ...i, durationHours: hours?.toString() ?? null, tuitionCost: i.tuitionCost?.toString() ?? null });

/** The note an answer carries when the program's hours are outside SPEC's documented range. */
function hoursWarnings(hours: number | null): FieldWarning[] {
  const message = programHoursWarning(hours);
  return message ? [{ field: 'durationHours', message }] : [];
}

export async function listPrograms(db: DbOrTx): Promise<Program[]> {
  return (await selectPrograms(db)).map(toProgram);
}

export async function getProgram(db: DbOrTx, id: number): Promise<Program> {
  const row = await selectProgram(db, id);
  if (!row) throw notFound('Program');
  return toProgram(row);
}

export async function createProgram(db: Db, input: Input, ctx: Ctx): Promise<ProgramSaved> {
  const hours = input.durationHours ?? null;
  assertProgramHours(hours, null, 'durationHours');
  return db.transaction(async (tx) => {
    const row = await withUniqueFields(() => insertProgram(tx, toColumns(input, hours)), UNIQUE);
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Create',
      tableName: 'programs',
      recordId: row.id,
      ipAddress: ctx.ip,
      newValues: { ...input, durationHours: hours },
    });
    return { ...toProgram(row), warnings: hoursWarnings(hours) };
  });
}

/**
 * PUT /api/programs/{id}: replaces the program. durationHours left out keeps the program's hours
 * (they are its policy's programHours, which the ledger counts); null clears them.
 */
export async function updateProgram(db: Db, id: number, input: Input, ctx: Ctx): Promise<ProgramSaved> {
  return db.transaction(async (tx) => {
    const before = await selectProgramForUpdate(tx, id);
    if (!before) throw notFound('Program');
    const current = num(before.durationHours);
    const hours = input.durationHours === undefined ? current : input.durationHours;
    assertProgramHours(hours, current, 'durationHours');
    if (hours != null && hours !== current) assertCheckpointsWithin((await selectPolicyRow(tx, id))?.sapCheckpointHours?.map(Number), hours, 'durationHours');
    const row = await withUniqueFields(() => updateProgramRow(tx, id, toColumns(input, hours)), UNIQUE);
    const diff = changedFields(toProgram(before) as unknown as Record<string, unknown>, { ...input, durationHours: hours } as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'programs', recordId: id, ipAddress: ctx.ip, ...diff });
    return { ...toProgram(row!), warnings: hoursWarnings(hours) };
  });
}

/** The stored hours of the programs with these SIS ids (the program import keeps them when a cell is blank). */
export async function programHoursBySisId(db: DbOrTx, sisIds: readonly string[]): Promise<Map<string, number | null>> {
  if (sisIds.length === 0) return new Map();
  return new Map((await selectProgramHoursBySisId(db, sisIds)).map((r) => [r.sisProgramId!, num(r.durationHours)]));
}

/** Program names by id, for the courses list. */
export async function listProgramNames(db: DbOrTx): Promise<Map<number, string>> {
  return new Map((await selectProgramNames(db)).map((p) => [p.id, p.programName]));
}

/** The program's name, or undefined when there is no program with this id. */
export async function findProgramName(db: DbOrTx, id: number): Promise<string | undefined> {
  return (await selectProgramName(db, id))?.programName;
}
