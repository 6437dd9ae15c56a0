import { programHoursProblem } from '../../../common/programs.ts';
import { programs } from '../../db/schema/index.ts';
import { upsertRows, type DbColumn } from '../../db/bulk-upsert.ts';
import { programHoursBySisId } from '../programs/service.ts';
import { allRows, copiedColumns, flagDuplicates, keysOf, splitByExisting, syncDateColumn, type ImportHandler, type PlanContext } from './handler.ts';
import { selectProgramsByKeyOrCode } from './queries.ts';

const COPIED = [
  ['sisProgramId', programs.sisProgramId, 'text'],
  ['programName', programs.programName, 'text'],
  ['programCode', programs.programCode, 'text'],
  ['credentialType', programs.credentialType, 'text'],
  ['description', programs.description, 'text'],
  ['status', programs.status, 'text'],
  ['startDate', programs.startDate, 'date'],
  ['endDate', programs.endDate, 'date'],
  ['accreditationBody', programs.accreditationBody, 'text'],
  ['programDirector', programs.programDirector, 'text'],
  ['tuitionCost', programs.tuitionCost, 'numeric'],
  ['capacity', programs.capacity, 'int'],
  ['campusLocation', programs.campusLocation, 'text'],
  ['externalProgramId', programs.externalProgramId, 'text'],
  ['regulatoryCode', programs.regulatoryCode, 'text'],
  ['syncStatus', programs.syncStatus, 'text'],
] as const;

/**
 * durationHours: the rule of every path (common/programs.ts; its range is the column's). It is the
 * program's clock-hour policy's programHours too (decision 040), so a blank cell keeps the program's
 * hours rather than clearing what the ledger counts.
 */
async function durationHoursColumn({ tx, sheet }: Pick<PlanContext, 'tx' | 'sheet'>, keys: readonly (string | null)[]): Promise<DbColumn[]> {
  if (!sheet.has('durationHours')) return [];
  const stored = await programHoursBySisId(
    tx,
    keys.filter((k): k is string => k != null),
  );
  return [
    {
      db: programs.durationHours,
      type: 'numeric',
      value: (i) => sheet.value<number>('durationHours', i) ?? (keys[i] == null ? null : (stored.get(keys[i]!) ?? null)),
    },
  ];
}

/** Programs: upsert by sisProgramId; programCode stays unique across programs. */
export const planPrograms: ImportHandler = async ({ tx, sheet, problems, timeZone }) => {
  const keys = keysOf(sheet, problems, 'sisProgramId');
  flagDuplicates(sheet, problems, 'programCode');
  const wanted = keys.filter((k): k is string => k != null);
  const codes = sheet.has('programCode')
    ? allRows(sheet)
        .map((i) => sheet.text('programCode', i))
        .filter((c): c is string => c != null)
    : [];
  const found = await selectProgramsByKeyOrCode(tx, wanted, codes);
  const wantedSet = new Set(wanted);
  const existing = new Map(found.filter((p) => p.sisProgramId != null && wantedSet.has(p.sisProgramId)).map((p) => [p.sisProgramId!, p]));
  const byCode = new Map(found.filter((p) => p.programCode != null).map((p) => [p.programCode!, p]));

  for (let i = 0; i < sheet.size; i++) {
    const code = sheet.text('programCode', i);
    const owner = code == null ? undefined : byCode.get(code);
    if (owner && owner.sisProgramId !== keys[i]) {
      problems.add(
        sheet.row(i),
        'programCode',
        `programCode ${code} already belongs to another program (${owner.sisProgramId ? `SIS ID ${owner.sisProgramId}` : `id ${owner.id}`})`,
        code,
      );
    }
    const start = sheet.text('startDate', i);
    const end = sheet.text('endDate', i);
    if (start && end && end < start) problems.add(sheet.row(i), 'endDate', 'endDate must not be before startDate', end);
    const hoursProblem = programHoursProblem(sheet.value<number>('durationHours', i), undefined, 'durationHours');
    if (hoursProblem) problems.add(sheet.row(i), 'durationHours', hoursProblem, sheet.raw('durationHours', i));
  }

  return {
    ...splitByExisting(keys, existing),
    write: async (w) => {
      const hoursColumn = await durationHoursColumn({ tx: w, sheet }, keys);
      await upsertRows(w, {
        table: programs,
        conflict: programs.sisProgramId,
        columns: [...copiedColumns(sheet, COPIED), ...hoursColumn, ...syncDateColumn(sheet, timeZone, programs.lastSyncDate)],
        rows: allRows(sheet),
        returning: { id: programs.id },
      });
    },
  };
};
