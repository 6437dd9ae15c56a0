import type { PgColumn } from 'drizzle-orm/pg-core';
import { COHORT } from '../../../common/constants.ts';
import { numberNamedCohorts } from '../../../common/schedules.ts';
import { schedules } from '../../db/schema/index.ts';
import { dateArrayLiteral, upsertRows } from '../../db/bulk-upsert.ts';
import { allRows, copiedColumns, keysOf, resolveRef, splitByExisting, syncDateColumn, type ImportHandler, type PlanContext } from './handler.ts';
import { fillScheduleRosters, selectCourseRefs, selectInstructorRefs, selectScheduleCohorts, selectScheduleKeys } from './queries.ts';

const COPIED = [
  ['sisScheduleId', schedules.sisScheduleId, 'text'],
  ['roomNumber', schedules.roomNumber, 'text'],
  ['startTime', schedules.startTime, 'time'],
  ['endTime', schedules.endTime, 'time'],
  ['dayOfWeek', schedules.dayOfWeek, 'int'],
  ['courseStartDate', schedules.courseStartDate, 'date'],
  ['courseEndDate', schedules.courseEndDate, 'date'],
  ['termNumber', schedules.termNumber, 'int'],
  ['isActive', schedules.isActive, 'bool'],
  ['room', schedules.room, 'text'],
  ['capacity', schedules.capacity, 'int'],
  ['notes', schedules.notes, 'text'],
  ['gradingPolicy', schedules.gradingPolicy, 'text'],
  ['term', schedules.term, 'text'],
  ['externalScheduleId', schedules.externalScheduleId, 'text'],
  ['academicYear', schedules.academicYear, 'text'],
  ['registrationCode', schedules.registrationCode, 'text'],
] as const;

/**
 * Each row's cohort (decision 047): the number from cohortNumber, or from a cohortName that is a
 * whole number (files written to SPEC's documentation name the number so); otherwise cohortName
 * is the cohort's name, numbered as the schedule form numbers one given without a number.
 */
async function cohortsOf(ctx: Pick<PlanContext, 'tx' | 'sheet' | 'problems' | 'today'>, programOf: (i: number) => number | null | undefined) {
  const { sheet, problems } = ctx;
  const numbers: (number | null)[] = new Array(sheet.size).fill(null);
  const names: (string | null)[] = new Array(sheet.size).fill(null);
  const unnumbered: { i: number; programId: number | null; cohortName: string }[] = [];
  for (let i = 0; i < sheet.size; i++) {
    const given = sheet.value<number>('cohortNumber', i);
    const name = sheet.text('cohortName', i);
    numbers[i] = given;
    if (name != null && /^\d+$/.test(name)) {
      const n = Number(name);
      if (n < COHORT.min || n > COHORT.max)
        problems.add(sheet.row(i), 'cohortName', `cohortName ${name} is a cohort number, which must be between ${COHORT.min} and ${COHORT.max}`, name);
      else if (given != null && given !== n)
        problems.add(sheet.row(i), 'cohortName', `cohortName ${name} is a cohort number other than cohortNumber ${given}`, name);
      else numbers[i] = n;
    } else if (name != null) {
      names[i] = name;
      const programId = programOf(i);
      // A row whose course is unknown is refused already; it needs no number.
      if (given == null && programId !== undefined) unnumbered.push({ i, programId, cohortName: name });
    }
  }
  const assigned = unnumbered.length === 0 ? [] : numberNamedCohorts(await selectScheduleCohorts(ctx.tx), unnumbered, ctx.today);
  unnumbered.forEach((u, k) => {
    numbers[u.i] = assigned[k] ?? null;
    if (assigned[k] == null)
      problems.add(
        sheet.row(u.i),
        'cohortNumber',
        `Every cohort number from ${COHORT.min} to ${COHORT.max} is in use in this program: give cohort ${u.cohortName} its number`,
      );
  });
  return { numbers, names };
}

/**
 * Schedules: upsert by sisScheduleId. courseId must name a course; instructorId, when given, an
 * active instructor (SIS user id, id or e-mail). Each imported schedule's roster gets the enrolled
 * students of its course's program.
 */
export const planSchedules: ImportHandler = async ({ tx, sheet, problems, timeZone, today }) => {
  const keys = keysOf(sheet, problems, 'sisScheduleId');
  const courses = await selectCourseRefs(tx);
  const courseBySis = new Map(courses.filter((c) => c.sisCourseId != null).map((c) => [c.sisCourseId!, c.id]));
  const courseById = new Map(courses.map((c) => [c.id, c.id]));
  const programOfCourse = new Map(courses.map((c) => [c.id, c.programId]));
  const instructors = await selectInstructorRefs(tx);
  const instructorBySis = new Map(instructors.filter((u) => u.sisUserId != null).map((u) => [u.sisUserId!, u]));
  const instructorById = new Map(instructors.map((u) => [u.id, u]));
  const instructorByEmail = new Map(instructors.map((u) => [u.email.toLowerCase(), u]));
  const found = await selectScheduleKeys(
    tx,
    keys.filter((k) => k != null),
  );
  const existing = new Map(found.map((s) => [s.sisScheduleId!, true]));

  const courseIds: (number | null)[] = new Array(sheet.size).fill(null);
  const instructorIds: (number | null)[] = new Array(sheet.size).fill(null);
  for (let i = 0; i < sheet.size; i++) {
    const row = sheet.row(i);
    const courseRef = sheet.raw('courseId', i);
    if (courseRef !== '' && sheet.text('courseId', i) != null) {
      const id = resolveRef(courseRef, courseBySis, courseById);
      if (id === undefined) problems.add(row, 'courseId', `No course with SIS ID or id ${courseRef}`, courseRef);
      else courseIds[i] = id;
    }
    const instructorRef = sheet.raw('instructorId', i);
    if (instructorRef !== '' && sheet.text('instructorId', i) != null) {
      const who = resolveRef(instructorRef, instructorBySis, instructorById) ?? instructorByEmail.get(instructorRef.toLowerCase());
      if (!who) problems.add(row, 'instructorId', `No instructor with SIS user ID, id or e-mail ${instructorRef}`, instructorRef);
      else if (!who.isActive) problems.add(row, 'instructorId', `Instructor ${instructorRef} is deactivated`, instructorRef);
      else instructorIds[i] = who.id;
    }
    const start = sheet.text('startTime', i);
    const end = sheet.text('endTime', i);
    if (start && end && start === end) problems.add(row, 'endTime', 'endTime must differ from startTime', sheet.raw('endTime', i));
    const from = sheet.text('courseStartDate', i);
    const to = sheet.text('courseEndDate', i);
    if (from && to && to < from) problems.add(row, 'courseEndDate', 'courseEndDate must not be before courseStartDate', sheet.raw('courseEndDate', i));
  }

  const cohorts = await cohortsOf({ tx, sheet, problems, today }, (i) => (courseIds[i] == null ? undefined : programOfCourse.get(courseIds[i]!)));
  const dateList = (name: string, db: PgColumn) =>
    sheet.has(name)
      ? [{ db, type: 'text' as const, value: (i: number) => dateArrayLiteral(sheet.value<readonly string[]>(name, i)), select: `u.${db.name}::date[]` }]
      : [];

  return {
    ...splitByExisting(keys, existing),
    write: async (w) => {
      const written = await upsertRows(w, {
        table: schedules,
        conflict: schedules.sisScheduleId,
        columns: [
          ...copiedColumns(sheet, COPIED),
          { db: schedules.courseId, type: 'int', value: (i) => courseIds[i] },
          { db: schedules.cohortNumber, type: 'int', value: (i) => cohorts.numbers[i] },
          ...(sheet.has('cohortName') ? [{ db: schedules.cohortName, type: 'text' as const, value: (i: number) => cohorts.names[i] }] : []),
          ...(sheet.has('instructorId') ? [{ db: schedules.instructorId, type: 'int' as const, value: (i: number) => instructorIds[i] }] : []),
          ...dateList('holidayExceptions', schedules.holidayExceptions),
          ...dateList('makeupDates', schedules.makeupDates),
          ...syncDateColumn(sheet, timeZone, schedules.lastSyncDate),
        ],
        rows: allRows(sheet),
        returning: { id: schedules.id },
      });
      await fillScheduleRosters(
        w,
        written.map((r) => r.id),
      );
    },
  };
};
