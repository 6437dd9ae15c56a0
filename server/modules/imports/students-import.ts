import { students } from '../../db/schema/index.ts';
import { upsertRows, type DbColumn } from '../../db/bulk-upsert.ts';
import { allRows, copiedColumns, keysOf, resolveRef, syncDateColumn, type ImportHandler } from './handler.ts';
import { addStudentsToRosters, classifyStudentKeys, removeMovedStudentsFromRosters, selectProgramRefs } from './queries.ts';

const COPIED = [
  ['sisStudentId', students.sisStudentId, 'text'],
  ['firstName', students.firstName, 'text'],
  ['lastName', students.lastName, 'text'],
  ['email', students.email, 'text'],
  ['phone', students.phone, 'text'],
  ['enrollmentDate', students.enrollmentDate, 'date'],
  ['status', students.status, 'text'],
  ['dateOfBirth', students.dateOfBirth, 'date'],
  ['address', students.address, 'text'],
  ['emergencyContact', students.emergencyContact, 'text'],
  ['financialAid', students.financialAid, 'text'],
  ['veteranStatus', students.veteranStatus, 'bool'],
  ['graduationDate', students.graduationDate, 'date'],
  ['externalStudentId', students.externalStudentId, 'text'],
  ['nationalStudentId', students.nationalStudentId, 'text'],
  ['transcriptId', students.transcriptId, 'text'],
] as const;

/**
 * Students: upsert by sisStudentId. programId must name a program. SSNs are encrypted here and
 * only the last four digits kept in clear. Enrolled students join the rosters of their program's
 * active schedules that have not ended; a student moved to another program leaves the rosters of
 * the old program's running schedules (attendance history stays).
 */
export const planStudents: ImportHandler = async ({ tx, sheet, problems, timeZone, today, cipher }) => {
  const keys = keysOf(sheet, problems, 'sisStudentId');
  const programs = await selectProgramRefs(tx);
  const programBySis = new Map(programs.filter((p) => p.sisProgramId != null).map((p) => [p.sisProgramId!, p.id]));
  const programById = new Map(programs.map((p) => [p.id, p.id]));

  const programIds: (number | null)[] = new Array(sheet.size).fill(null);
  for (let i = 0; i < sheet.size; i++) {
    const ref = sheet.raw('programId', i);
    if (ref === '' || sheet.text('programId', i) == null) continue;
    const id = resolveRef(ref, programBySis, programById);
    if (id === undefined) {
      problems.add(sheet.row(i), 'programId', `No program with SIS ID or id ${ref}`, ref);
      continue;
    }
    programIds[i] = id;
  }
  const { existing, moved: movedKeys } = await classifyStudentKeys(tx, keys, programIds);
  const named = keys.reduce((n, k) => (k == null ? n : n + 1), 0);

  const ssn: DbColumn[] = sheet.has('socialSecurityNumber')
    ? [
        { db: students.ssnEncrypted, type: 'text', value: (i) => { const v = sheet.text('socialSecurityNumber', i); return v ? cipher.encrypt(v) : null; } },
        { db: students.ssnLast4, type: 'text', value: (i) => sheet.text('socialSecurityNumber', i)?.slice(-4) ?? null },
      ]
    : [];

  return {
    created: named - existing,
    updated: existing,
    write: async (w) => {
      const written = await upsertRows(w, {
        table: students,
        conflict: students.sisStudentId,
        columns: [...copiedColumns(sheet, COPIED), { db: students.programId, type: 'int', value: (i) => programIds[i] }, ...ssn, ...syncDateColumn(sheet, timeZone, students.lastSyncDate)],
        rows: allRows(sheet),
        returning: { id: students.id },
      });
      if (movedKeys.length > 0) {
        await removeMovedStudentsFromRosters(w, movedKeys, today);
      }
      await addStudentsToRosters(w, written.map((r) => r.id), today);
    },
  };
};
