import { and, asc, countDistinct, eq, gte, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, programPolicies, programTimeClockVersions, programs, students, users } from '../../db/schema/index.ts';

export type ProgramRow = typeof programs.$inferSelect;
type ProgramValues = typeof programs.$inferInsert;

export async function selectPrograms(db: DbOrTx): Promise<ProgramRow[]> {
  return db.select().from(programs).orderBy(asc(programs.programName));
}

/** The program, locked for the rest of the transaction. */
export async function selectProgramForUpdate(db: DbOrTx, id: number): Promise<ProgramRow | undefined> {
  const [row] = await db.select().from(programs).where(eq(programs.id, id)).for('update');
  return row;
}

export async function insertProgram(db: DbOrTx, values: ProgramValues): Promise<ProgramRow> {
  const [row] = await db.insert(programs).values(values).returning();
  return row!;
}

export async function updateProgramRow(db: DbOrTx, id: number, values: ProgramValues): Promise<ProgramRow | undefined> {
  const [row] = await db
    .update(programs)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(programs.id, id))
    .returning();
  return row;
}

export async function selectProgram(db: DbOrTx, id: number): Promise<ProgramRow | undefined> {
  const [row] = await db.select().from(programs).where(eq(programs.id, id));
  return row;
}

export async function selectProgramNames(db: DbOrTx): Promise<Pick<ProgramRow, 'id' | 'programName'>[]> {
  return db.select({ id: programs.id, programName: programs.programName }).from(programs);
}

export async function selectProgramName(db: DbOrTx, id: number): Promise<Pick<ProgramRow, 'programName'> | undefined> {
  const [row] = await db.select({ programName: programs.programName }).from(programs).where(eq(programs.id, id));
  return row;
}

export type ProgramPolicyRow = typeof programPolicies.$inferSelect;

/** The stored policy row of a program (none: every value is its default). */
export async function selectPolicyRow(db: DbOrTx, programId: number): Promise<ProgramPolicyRow | undefined> {
  const [row] = await db.select().from(programPolicies).where(eq(programPolicies.programId, programId));
  return row;
}

// program_hours is not written here: the program's durationHours is the figure, and the database
// keeps the column equal to it (decision 040).
type PolicyValues = Omit<typeof programPolicies.$inferInsert, 'programId' | 'programHours' | 'updatedAt'>;

/** Write the program's policy row (one per program), replacing every value it had. */
export async function upsertPolicyRow(db: DbOrTx, programId: number, values: PolicyValues): Promise<void> {
  await db
    .insert(programPolicies)
    .values({ programId, ...values })
    .onConflictDoUpdate({ target: programPolicies.programId, set: { ...values, updatedAt: sql`now()` } });
}

/** The sum of the clock hours of the program's active courses: programHours' default. */
export async function selectActiveCourseHours(db: DbOrTx, programId: number): Promise<number> {
  const [row] = await db
    .select({ hours: sql<string | null>`sum(${courses.clockHours})` })
    .from(courses)
    .where(and(eq(courses.programId, programId), eq(courses.isActive, true)));
  return Number(row?.hours ?? 0);
}

/** Set the program's hours alone (its policy's programHours, the same figure: decision 040). */
export async function updateProgramHours(db: DbOrTx, id: number, hours: string | null): Promise<void> {
  await db
    .update(programs)
    .set({ durationHours: hours, updatedAt: sql`now()` })
    .where(eq(programs.id, id));
}

export async function selectProgramHoursBySisId(db: DbOrTx, sisIds: readonly string[]): Promise<Pick<ProgramRow, 'sisProgramId' | 'durationHours'>[]> {
  return db
    .select({ sisProgramId: programs.sisProgramId, durationHours: programs.durationHours })
    .from(programs)
    .where(inArray(programs.sisProgramId, [...sisIds]));
}

// ---- Time-clock rules (decision 050): versions by date ----

export type TimeClockVersionRow = typeof programTimeClockVersions.$inferSelect & { createdByName: string | null };
type TimeClockValues = Omit<typeof programTimeClockVersions.$inferInsert, 'id' | 'programId' | 'effectiveFrom' | 'createdAt'>;

/** A program's versions in date order, the one from the beginning (null date) first. */
export async function selectTimeClockVersions(db: DbOrTx, programId: number): Promise<TimeClockVersionRow[]> {
  const rows = await db
    .select({ version: programTimeClockVersions, firstName: users.firstName, lastName: users.lastName })
    .from(programTimeClockVersions)
    .leftJoin(users, eq(users.id, programTimeClockVersions.createdBy))
    .where(eq(programTimeClockVersions.programId, programId))
    .orderBy(sql`${programTimeClockVersions.effectiveFrom} asc nulls first`);
  return rows.map((r) => ({ ...r.version, createdByName: r.firstName == null ? null : `${r.firstName} ${r.lastName}` }));
}

/** Save the version of that date: a new one, or the one already saved for the same date replaced. */
export async function upsertTimeClockVersion(db: DbOrTx, programId: number, effectiveFrom: string, values: TimeClockValues): Promise<void> {
  await db
    .insert(programTimeClockVersions)
    .values({ programId, effectiveFrom, ...values })
    .onConflictDoUpdate({ target: [programTimeClockVersions.programId, programTimeClockVersions.effectiveFrom], set: { ...values, createdAt: sql`now()` } });
}

/** How many of the program's students have attendance records on or after the date. */
export async function countStudentsWithRecordsFrom(db: DbOrTx, programId: number, from: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(attendanceRecords.studentId) })
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .where(and(eq(students.programId, programId), gte(attendanceRecords.sessionDate, from)));
  return Number(row?.n ?? 0);
}
