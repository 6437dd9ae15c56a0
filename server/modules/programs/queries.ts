import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { courses, programPolicies, programs } from '../../db/schema/index.ts';

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
