import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { MISSING_CHECK_OUT_POLICIES, ROUNDING_MODES } from '../../../common/time-clock.ts';
import { programs } from './academics.ts';
import { inList } from './sql-helpers.ts';
import { users } from './users.ts';

/**
 * Versions of a program's time-clock rules (decision 050). A version applies from its
 * effective date until the next one; a null date is "from the beginning" (the version migration
 * 0026 gave every program that existed, with Muster's behaviour until then). A program with no
 * version counts by the new-program defaults (common/time-clock.ts). Versions are never edited in
 * place except by a new save on the same date, so a day is always counted by the rule of its date.
 */
export const programTimeClockVersions = pgTable(
  'program_time_clock_versions',
  {
    id: serial('id').primaryKey(),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    effectiveFrom: date('effective_from'),
    missingCheckOut: text('missing_check_out').notNull(),
    rounding: text('rounding').notNull(),
    roundingMinutes: integer('rounding_minutes').notNull(),
    graceMinutes: integer('grace_minutes').notNull(),
    // Both or neither: the meal deduction is off without them.
    mealAfterMinutes: integer('meal_after_minutes'),
    mealMinutes: integer('meal_minutes'),
    dailyMaxMinutes: integer('daily_max_minutes'),
    weeklyMaxMinutes: integer('weekly_max_minutes'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('program_time_clock_versions_program_date_unique').on(t.programId, t.effectiveFrom),
    // One "from the beginning" version per program (a unique index treats nulls as distinct).
    uniqueIndex('program_time_clock_versions_program_base_unique')
      .on(t.programId)
      .where(sql`${t.effectiveFrom} is null`),
    check(
      'program_time_clock_versions_missing_check_out_check',
      sql`${t.missingCheckOut} is not null and (${inList(t.missingCheckOut, MISSING_CHECK_OUT_POLICIES)})`,
    ),
    check('program_time_clock_versions_rounding_check', sql`${t.rounding} is not null and (${inList(t.rounding, ROUNDING_MODES)})`),
    check('program_time_clock_versions_minutes_check', sql`${t.roundingMinutes} between 1 and 30 and ${t.graceMinutes} between 0 and 60`),
    check(
      'program_time_clock_versions_meal_check',
      sql`(${t.mealAfterMinutes} is null and ${t.mealMinutes} is null) or (${t.mealAfterMinutes} between 60 and 960 and ${t.mealMinutes} between 1 and 120)`,
    ),
    check(
      'program_time_clock_versions_caps_check',
      sql`(${t.dailyMaxMinutes} is null or ${t.dailyMaxMinutes} between 60 and 1440) and (${t.weeklyMaxMinutes} is null or ${t.weeklyMaxMinutes} between 60 and 10080)`,
    ),
  ],
);
