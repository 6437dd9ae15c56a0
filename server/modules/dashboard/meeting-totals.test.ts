import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse, buildProgram, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { KEPT_RECENT_STATUSES } from '../attendance-alerts/queries.ts';

// meeting_status_totals and student_class_totals must always equal a fresh count of attendance_records:
// the dashboards read them instead of the records (decisions 026 and 058), so any drift would be a
// wrong figure on screen.
let t: TestApp;
const schedules: number[] = [];
const students: number[] = [];

const fresh = sql`
  select schedule_id, session_date::text, status, count(*)::int as records,
         coalesce(sum(minutes_attended), 0)::int as minutes, coalesce(sum(scheduled_minutes), 0)::int as scheduled
    from attendance_records group by 1, 2, 3 order by 1, 2, 3`;
const kept = sql`
  select schedule_id, session_date::text, status, records, minutes_attended::int as minutes, scheduled_minutes::int as scheduled
    from meeting_status_totals where records <> 0 or minutes_attended <> 0 or scheduled_minutes <> 0 order by 1, 2, 3`;
const freshPerClass = sql`
  select student_id, schedule_id, count(*)::int as records, (count(*) filter (where status = 'absent'))::int as absences,
         coalesce(sum(minutes_attended), 0)::int as minutes, coalesce(sum(scheduled_minutes), 0)::int as scheduled,
         max(session_date)::text as last, (max(session_date) filter (where status = 'absent'))::text as "lastAbsence",
         (array_agg(status order by session_date desc))[1:${KEPT_RECENT_STATUSES}] as recent
    from attendance_records group by 1, 2 order by 1, 2`;
const keptPerClass = sql`
  select student_id, schedule_id, records, absences, minutes_attended::int as minutes, scheduled_minutes::int as scheduled,
         last_session_date::text as last, last_absence_date::text as "lastAbsence", recent
    from student_class_totals order by 1, 2`;
const expectInStep = async () => {
  expect((await t.db.execute(kept)).rows).toEqual((await t.db.execute(fresh)).rows);
  expect((await t.db.execute(keptPerClass)).rows).toEqual((await t.db.execute(freshPerClass)).rows);
};

beforeAll(async () => {
  t = await createTestApp();
  const program = (await buildProgram(t.db, { programName: 'PN' })).id;
  const courseId = (await buildCourse(t.db, { courseCode: 'T-1', courseName: 'Totals', programId: program })).id;
  const instructorId = (await t.signedIn('instructor')).userId;
  for (let i = 0; i < 2; i++) schedules.push((await buildSchedule(t.db, { courseId, instructorId, cohortNumber: i + 1 })).id);
  for (let i = 0; i < 6; i++) students.push((await buildStudent(t.db, { firstName: 'S', lastName: `No${i}`, programId: null })).id);
});
afterAll(() => t.close());

describe('meeting_status_totals and student_class_totals', () => {
  it('follows inserts of one row and of many, updates of status, minutes, date and meeting, and deletes', async () => {
    const [a, b] = schedules;
    await t.db.execute(sql`
      insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source)
      select st, ${a}, d::date, (array['present','late','absent','excused','incomplete'])[1 + (st + extract(day from d)::int) % 5], (st * 7) % 240, 240, 'manual'
        from unnest(${sql.param(students)}::int[]) st, generate_series('2026-02-16'::date, '2026-03-30'::date, interval '7 days') d`);
    await expectInStep();
    await t.db.execute(sql`insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source)
                           values (${students[0]}, ${b}, '2026-03-02', 'late', null, null, 'qr')`);
    await expectInStep();
    await t.db.execute(
      sql`update attendance_records set status = 'absent', minutes_attended = 0 where session_date = '2026-03-09' and student_id = any(${sql.param(students.slice(0, 3))}::int[])`,
    );
    await expectInStep();
    await t.db.execute(sql`update attendance_records set minutes_attended = 200 where status = 'late'`);
    await expectInStep();
    await t.db.execute(sql`update attendance_records set session_date = '2026-04-06' where session_date = '2026-03-30' and student_id = ${students[1]}`);
    await t.db.execute(sql`update attendance_records set schedule_id = ${b} where session_date = '2026-03-16' and student_id = ${students[2]}`);
    await expectInStep();
    // An update that changes nothing counted (the SIS export marking records synced) leaves the totals alone.
    const before = (await t.db.execute(kept)).rows;
    await t.db.execute(sql`update attendance_records set sync_status = 'synced'`);
    expect((await t.db.execute(kept)).rows).toEqual(before);
    await t.db.execute(sql`delete from attendance_records where session_date = '2026-03-23'`);
    await expectInStep();
    // The last meeting and the last absence of a class go back when theirs are corrected or removed.
    await t.db.execute(sql`update attendance_records set status = 'excused' where status = 'absent' and session_date >= '2026-03-16'`);
    await expectInStep();
    await t.db.execute(sql`delete from attendance_records where session_date >= '2026-03-30'`);
    await expectInStep();
    await t.db.execute(sql`delete from attendance_records where student_id = ${students[0]}`);
    await expectInStep();
  });

  it('stays exact when many transactions write the same meeting at once', async () => {
    const [a] = schedules;
    await t.db.execute(sql`delete from attendance_records`);
    await Promise.all(
      students.map((st, i) =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source)
                               values (${st}, ${a}, '2026-05-04', 'present', 240, 240, 'qr')`);
          await tx.execute(sql`update attendance_records set status = ${i % 2 ? 'late' : 'incomplete'}, minutes_attended = ${100 + i}
                               where student_id = ${st} and session_date = '2026-05-04'`);
        }),
      ),
    );
    await expectInStep();
  });
});
