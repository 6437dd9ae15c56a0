import { programs } from '../../db/schema/index.ts';
import { upsertRows } from '../../db/bulk-upsert.ts';
import { allRows, copiedColumns, flagDuplicates, keysOf, splitByExisting, syncDateColumn, type ImportHandler } from './handler.ts';
import { selectProgramsByKeyOrCode } from './queries.ts';

const COPIED = [
  ['sisProgramId', programs.sisProgramId, 'text'],
  ['programName', programs.programName, 'text'],
  ['programCode', programs.programCode, 'text'],
  ['durationHours', programs.durationHours, 'numeric'],
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

/** Programs: upsert by sisProgramId; programCode stays unique across programs. */
export const planPrograms: ImportHandler = async ({ tx, sheet, problems, timeZone }) => {
  const keys = keysOf(sheet, problems, 'sisProgramId');
  flagDuplicates(sheet, problems, 'programCode');
  const wanted = keys.filter((k): k is string => k != null);
  const codes = sheet.has('programCode') ? allRows(sheet).map((i) => sheet.text('programCode', i)).filter((c): c is string => c != null) : [];
  const found = await selectProgramsByKeyOrCode(tx, wanted, codes);
  const wantedSet = new Set(wanted);
  const existing = new Map(found.filter((p) => p.sisProgramId != null && wantedSet.has(p.sisProgramId)).map((p) => [p.sisProgramId!, p]));
  const byCode = new Map(found.filter((p) => p.programCode != null).map((p) => [p.programCode!, p]));

  for (let i = 0; i < sheet.size; i++) {
    const code = sheet.text('programCode', i);
    const owner = code == null ? undefined : byCode.get(code);
    if (owner && owner.sisProgramId !== keys[i]) {
      problems.add(sheet.row(i), 'programCode', `programCode ${code} already belongs to another program (${owner.sisProgramId ? `SIS ID ${owner.sisProgramId}` : `id ${owner.id}`})`, code);
    }
    const start = sheet.text('startDate', i);
    const end = sheet.text('endDate', i);
    if (start && end && end < start) problems.add(sheet.row(i), 'endDate', 'endDate must not be before startDate', end);
  }

  return {
    ...splitByExisting(keys, existing),
    write: async (w) => {
      await upsertRows(w, {
        table: programs,
        conflict: programs.sisProgramId,
        columns: [...copiedColumns(sheet, COPIED), ...syncDateColumn(sheet, timeZone, programs.lastSyncDate)],
        rows: allRows(sheet),
        returning: { id: programs.id },
      });
    },
  };
};
