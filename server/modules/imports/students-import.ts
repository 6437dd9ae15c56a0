import { students } from '../../db/schema/index.ts';
import { StagingTable, type DbColumn } from '../../db/bulk-upsert.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { allRows, copiedColumns, keysOf, resolveRef, syncDateColumn, type ImportPartsHandler } from './handler.ts';
import { recordOwnedStatusProblem } from '../../../common/students.ts';
import {
  addStagedStudentsToRosters,
  classifyStagedStudents,
  removeMovedStudentsFromRosters,
  selectProgramRefs,
  selectStudentStatusesBySis,
} from './queries.ts';
import type { Sheet } from './sheet.ts';

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
 *
 * A file may hold 100,000 students, so it is taken a part at a time: each part's cells are
 * checked and, while no problem has been found, its rows are COPYed into a staging table; the
 * counts, the moves and the write are then set-based statements over that table (decision 028).
 */
export const studentsInParts: ImportPartsHandler = {
  inParts: async ({ tx, problems, timeZone, today, cipher }) => {
    const programs = await selectProgramRefs(tx);
    const programBySis = new Map(programs.filter((p) => p.sisProgramId != null).map((p) => [p.sisProgramId!, p.id]));
    const programById = new Map(programs.map((p) => [p.id, p.id]));
    const seen = new Map<string, number>();
    let named = 0;
    let staging: StagingTable | null = null;
    let columns: DbColumn[] = [];

    /** Withdrawals and leaves own their statuses: a file neither sets nor lifts them (decision 037). */
    const checkStatuses = async (sheet: Sheet, keys: (string | null)[]) => {
      const named = keys.filter((k): k is string => k != null);
      const current = named.length > 0 ? await selectStudentStatusesBySis(tx, named) : new Map<string, string>();
      for (let i = 0; i < sheet.size; i++) {
        const to = sheet.text('status', i);
        if (to == null) continue;
        const problem = recordOwnedStatusProblem(keys[i] == null ? null : (current.get(keys[i]!) ?? null), to);
        if (problem) problems.add(sheet.row(i), 'status', problem, sheet.raw('status', i));
      }
    };

    return {
      async add(sheet) {
        const keys = keysOf(sheet, problems, 'sisStudentId', seen);
        for (const k of keys) if (k != null) named += 1;
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
        if (sheet.has('status')) await checkStatuses(sheet, keys);
        // Once anything is wrong nothing will be written: the rest is only checked.
        if (problems.any) return;
        columns = studentColumns(sheet, programIds, cipher, timeZone);
        staging ??= await StagingTable.create(tx, STAGING, columns);
        await staging.copy(columns, allRows(sheet));
      },

      async finish() {
        const staged = staging;
        if (!staged || problems.any) return { created: 0, updated: 0, write: async () => {} };
        const { existing, moved } = await classifyStagedStudents(tx, staged.name);
        return {
          created: named - existing,
          updated: existing,
          write: async (w) => {
            await staged.mergeInto({ table: students, conflict: students.sisStudentId, columns });
            if (moved.length > 0) await removeMovedStudentsFromRosters(w, moved, today);
            await addStagedStudentsToRosters(w, staged.name, today);
          },
        };
      },
    };
  },
};

const STAGING = 'import_students_staging';

/** The table columns a part's rows write: those in the file, the resolved program, the SSN as ciphertext and last four. */
function studentColumns(sheet: Sheet, programIds: readonly (number | null)[], cipher: FieldCipher, timeZone: string): DbColumn[] {
  const ssn: DbColumn[] = sheet.has('socialSecurityNumber')
    ? [
        {
          db: students.ssnEncrypted,
          type: 'text',
          value: (i) => {
            const v = sheet.text('socialSecurityNumber', i);
            return v ? cipher.encrypt(v) : null;
          },
        },
        { db: students.ssnLast4, type: 'text', value: (i) => sheet.text('socialSecurityNumber', i)?.slice(-4) ?? null },
      ]
    : [];
  return [
    ...copiedColumns(sheet, COPIED),
    { db: students.programId, type: 'int', value: (i) => programIds[i] },
    ...ssn,
    ...syncDateColumn(sheet, timeZone, students.lastSyncDate),
  ];
}
