import { programs } from '../../db/schema/index.ts';
import { upsertRows } from './bulk-sql.ts';
import { allRows, copiedColumns, flagDuplicates, keysOf, splitByExisting, syncDateColumn, type ImportHandler } from './handler.ts';
import { selectProgramsByKeyOrCode } from './queries.ts';

const COPIED = [
  ['sisProgramId', 'sis_program_id', 'text'],
  ['programName', 'program_name', 'text'],
  ['programCode', 'program_code', 'text'],
  ['durationHours', 'duration_hours', 'numeric'],
  ['credentialType', 'credential_type', 'text'],
  ['description', 'description', 'text'],
  ['status', 'status', 'text'],
  ['startDate', 'start_date', 'date'],
  ['endDate', 'end_date', 'date'],
  ['accreditationBody', 'accreditation_body', 'text'],
  ['programDirector', 'program_director', 'text'],
  ['tuitionCost', 'tuition_cost', 'numeric'],
  ['capacity', 'capacity', 'int'],
  ['campusLocation', 'campus_location', 'text'],
  ['externalProgramId', 'external_program_id', 'text'],
  ['regulatoryCode', 'regulatory_code', 'text'],
  ['syncStatus', 'sync_status', 'text'],
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
        columns: [...copiedColumns(sheet, COPIED), ...syncDateColumn(sheet, timeZone)],
        rows: allRows(sheet),
        returning: { id: programs.id },
      });
    },
  };
};
