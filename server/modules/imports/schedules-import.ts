import type { PgColumn } from 'drizzle-orm/pg-core';
import { schedules } from '../../db/schema/index.ts';
import { dateArrayLiteral, upsertRows } from '../../db/bulk-upsert.ts';
import { allRows, copiedColumns, keysOf, resolveRef, splitByExisting, syncDateColumn, type ImportHandler } from './handler.ts';
import { fillScheduleRosters, selectCourseRefs, selectInstructorRefs, selectScheduleKeys } from './queries.ts';

const COPIED = [
  ['sisScheduleId', schedules.sisScheduleId, 'text'],
  ['roomNumber', schedules.roomNumber, 'text'],
  ['startTime', schedules.startTime, 'time'],
  ['endTime', schedules.endTime, 'time'],
  ['dayOfWeek', schedules.dayOfWeek, 'int'],
  ['courseStartDate', schedules.courseStartDate, 'date'],
  ['courseEndDate', schedules.courseEndDate, 'date'],
  ['cohortNumber', schedules.cohortNumber, 'int'],
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
 * Schedules: upsert by sisScheduleId. courseId must name a course; instructorId, when given, an
 * active instructor (SIS user id, id or e-mail). Each imported schedule's roster gets the enrolled
 * students of its course's program.
 */
export const planSchedules: ImportHandler = async ({ tx, sheet, problems, timeZone }) => {
  const keys = keysOf(sheet, problems, 'sisScheduleId');
  const courses = await selectCourseRefs(tx);
  const courseBySis = new Map(courses.filter((c) => c.sisCourseId != null).map((c) => [c.sisCourseId!, c.id]));
  const courseById = new Map(courses.map((c) => [c.id, c.id]));
  const instructors = await selectInstructorRefs(tx);
  const instructorBySis = new Map(instructors.filter((u) => u.sisUserId != null).map((u) => [u.sisUserId!, u]));
  const instructorById = new Map(instructors.map((u) => [u.id, u]));
  const instructorByEmail = new Map(instructors.map((u) => [u.email.toLowerCase(), u]));
  const found = await selectScheduleKeys(tx, keys.filter((k) => k != null));
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

  const dateList = (name: string, db: PgColumn) =>
    sheet.has(name) ? [{ db, type: 'text' as const, value: (i: number) => dateArrayLiteral(sheet.value<readonly string[]>(name, i)), select: `u.${db.name}::date[]` }] : [];

  return {
    ...splitByExisting(keys, existing),
    write: async (w) => {
      const written = await upsertRows(w, {
        table: schedules,
        conflict: schedules.sisScheduleId,
        columns: [
          ...copiedColumns(sheet, COPIED),
          { db: schedules.courseId, type: 'int', value: (i) => courseIds[i] },
          ...(sheet.has('instructorId') ? [{ db: schedules.instructorId, type: 'int' as const, value: (i: number) => instructorIds[i] }] : []),
          ...dateList('holidayExceptions', schedules.holidayExceptions),
          ...dateList('makeupDates', schedules.makeupDates),
          ...syncDateColumn(sheet, timeZone, schedules.lastSyncDate),
        ],
        rows: allRows(sheet),
        returning: { id: schedules.id },
      });
      await fillScheduleRosters(w, written.map((r) => r.id));
    },
  };
};
