import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../common/roles.ts';
import { verifyPassword } from '../lib/passwords.ts';
import { buildUser } from '../test/factories.ts';
import { createTestDatabase } from '../test/helpers.ts';
import type { Db } from '../db/client.ts';
import { seedDemoSchool, type SeedResult } from './demo-school.ts';

// A Wednesday afternoon; the term began on the Monday four weeks and a bit earlier.
const TODAY = new Date('2025-10-15T18:00:00Z');
const TODAY_DATE = '2025-10-15';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let result: SeedResult;

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

async function tableCounts(db: Db): Promise<Record<string, number>> {
  const [r] = await rows<Record<string, number>>(
    db,
    sql`select (select count(*)::int from users) as users, (select count(*)::int from students) as students,
               (select count(*)::int from programs) as programs, (select count(*)::int from courses) as courses,
               (select count(*)::int from schedules) as schedules, (select count(*)::int from schedule_rosters) as rosters,
               (select count(*)::int from qr_sessions) as qr, (select count(*)::int from attendance_records) as attendance,
               (select count(*)::int from instructor_profiles) as profiles, (select count(*)::int from audit_logs) as audit`,
  );
  return r!;
}

beforeAll(async () => {
  t = await createTestDatabase();
  result = await seedDemoSchool(t.db, { today: TODAY });
});
afterAll(() => t.drop());

describe('seedDemoSchool', () => {
  it('produces a school of the expected size, and the counts match the database', async () => {
    const c = result.counts;
    expect(c.programs).toBe(2);
    expect(c.courses).toBeGreaterThanOrEqual(8);
    expect(c.courses).toBeLessThanOrEqual(10);
    expect(c.coursePrerequisites).toBeGreaterThanOrEqual(2);
    expect(c.instructors).toBe(4);
    expect(c.students).toBeGreaterThanOrEqual(110);
    expect(c.students).toBeLessThanOrEqual(130);
    expect(c.schedules).toBeGreaterThanOrEqual(10);
    expect(c.schedules).toBeLessThanOrEqual(14);
    expect(c.attendanceRecords).toBeGreaterThan(1000);

    const db = await tableCounts(t.db);
    expect(db).toMatchObject({
      programs: c.programs,
      courses: c.courses,
      students: c.students,
      schedules: c.schedules,
      rosters: c.rosterEntries,
      qr: c.qrSessions,
      attendance: c.attendanceRecords,
      profiles: 4,
      users: 7,
    });
    const [hours] = await rows<{ bad: number }>(t.db, sql`select count(*)::int as bad from courses where clock_hours not between 50 and 120`);
    expect(hours!.bad).toBe(0);
  });

  it('gives every schedule a roster of 20–30 enrolled students of the course program', async () => {
    const r = await rows<{ id: number; n: number; wrong: number }>(
      t.db,
      sql`select s.id, count(sr.student_id)::int as n,
                 count(*) filter (where st.status <> 'enrolled' or st.program_id is distinct from c.program_id)::int as wrong
            from schedules s join courses c on c.id = s.course_id
            left join schedule_rosters sr on sr.schedule_id = s.id
            left join students st on st.id = sr.student_id
           group by s.id`,
    );
    expect(r).toHaveLength(result.counts.schedules!);
    for (const s of r) {
      expect(s.n, `schedule ${s.id}`).toBeGreaterThanOrEqual(20);
      expect(s.n, `schedule ${s.id}`).toBeLessThanOrEqual(30);
      expect(s.wrong).toBe(0);
    }
    // No instructor, room or cohort is double-booked.
    const [clash] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from schedules a join schedules b on a.id < b.id and a.day_of_week = b.day_of_week
           and a.start_time < b.end_time and b.start_time < a.end_time
           and (a.instructor_id = b.instructor_id or a.room_number = b.room_number
                or (a.cohort_number = b.cohort_number and a.term_number = b.term_number))`,
    );
    expect(clash!.n).toBe(0);
  });

  it('has attendance only before today, one record per past meeting and rostered student', async () => {
    const [r] = await rows<{ future: number; min: string; max: string; offRoster: number; wrongDay: number }>(
      t.db,
      sql`select count(*) filter (where a.session_date >= ${TODAY_DATE}::date)::int as future,
                 min(a.session_date)::text as min, max(a.session_date)::text as max,
                 count(*) filter (where sr.student_id is null)::int as "offRoster",
                 count(*) filter (where extract(dow from a.session_date) <> s.day_of_week)::int as "wrongDay"
            from attendance_records a join schedules s on s.id = a.schedule_id
            left join schedule_rosters sr on sr.schedule_id = a.schedule_id and sr.student_id = a.student_id`,
    );
    expect(r!.future).toBe(0);
    expect(r!.offRoster).toBe(0);
    expect(r!.wrongDay).toBe(0);
    expect(r!.max < TODAY_DATE).toBe(true);
    expect(r!.min >= '2025-09-15').toBe(true);

    // Complete coverage: every QR session (meeting) has exactly its roster's records.
    const [gaps] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from qr_sessions q
           where (select count(*) from attendance_records a where a.schedule_id = q.schedule_id and a.session_date = q.session_date)
              <> (select count(*) from schedule_rosters sr where sr.schedule_id = q.schedule_id)`,
    );
    expect(gaps!.n).toBe(0);
    const [term] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from schedules where course_start_date > ${TODAY_DATE}::date - 28 or course_end_date <= ${TODAY_DATE}::date + 56`,
    );
    expect(term!.n).toBe(0);
  });

  it('records believable statuses, times and overrides', async () => {
    const c = result.counts;
    expect(c.present! / c.attendanceRecords!).toBeGreaterThan(0.75);
    for (const k of ['late', 'absent', 'incomplete', 'excused', 'manualOverrides'] as const) expect(c[k], k).toBeGreaterThan(0);

    const [bad] = await rows<Record<string, number>>(
      t.db,
      sql`select
            count(*) filter (where minutes_attended > scheduled_minutes or scheduled_minutes not in (210, 240))::int as minutes,
            count(*) filter (where status = 'absent' and (source <> 'auto' or scan_in_time is not null or minutes_attended <> 0))::int as absent,
            count(*) filter (where source = 'qr' and (scan_in_time is null or qr_session_id is null))::int as qr,
            count(*) filter (where is_manual_override and (override_reason is null or overridden_by is null
                              or overridden_by not in (select user_id from instructor_profiles)))::int as overrides,
            count(*) filter (where status = 'excused' and not is_manual_override)::int as excused,
            count(*) filter (where source = 'qr' and ((scan_in_time at time zone 'UTC')::date <> session_date))::int as "scanDay",
            count(*) filter (where status = 'late' and scan_in_time <= ((session_date + s.start_time) at time zone 'UTC') + interval '10 minutes')::int as late,
            count(*) filter (where status = 'present' and source = 'qr' and not is_manual_override
                              and scan_in_time > ((session_date + s.start_time) at time zone 'UTC') + interval '10 minutes')::int as present,
            count(*) filter (where status = 'incomplete' and scan_out_time >= ((session_date + s.end_time) at time zone 'UTC') - interval '10 minutes')::int as incomplete
          from attendance_records a join schedules s on s.id = a.schedule_id`,
    );
    expect(bad).toEqual({ minutes: 0, absent: 0, qr: 0, overrides: 0, excused: 0, scanDay: 0, late: 0, present: 0, incomplete: 0 });
  });

  it('leaves a handful of students under 80% attendance for low-attendance alerts', async () => {
    const low = await rows<{ student_id: number; rate: number }>(
      t.db,
      sql`select student_id, avg(case when status in ('present', 'late', 'excused') then 1.0 else 0 end)::float as rate
            from attendance_records group by student_id having avg(case when status in ('present', 'late', 'excused') then 1.0 else 0 end) < 0.8`,
    );
    expect(low.length).toBeGreaterThanOrEqual(5);
    expect(low.length).toBeLessThanOrEqual(15);
    // Someone has not attended for 14+ days: the withdrawal rule has a case to show.
    const [gone] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from (
            select student_id from attendance_records group by student_id
            having max(session_date) filter (where status <> 'absent') <= ${TODAY_DATE}::date - 14) x`,
    );
    expect(gone!.n).toBeGreaterThanOrEqual(1);
  });

  it('returns one account per role whose password verifies against the stored hash', async () => {
    expect(result.accounts.map((a) => a.role)).toEqual([...ROLES]);
    for (const a of result.accounts) {
      expect(a.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
      const [u] = await rows<{ password_hash: string; role: string; is_active: boolean }>(
        t.db,
        sql`select password_hash, role, is_active from users where lower(email) = lower(${a.email})`,
      );
      expect(u?.role).toBe(a.role);
      expect(u?.is_active).toBe(true);
      expect(await verifyPassword(u!.password_hash, a.password)).toBe(true);
      expect(await verifyPassword(u!.password_hash, a.password + 'x')).toBe(false);
    }
    const instructor = result.accounts.find((a) => a.role === 'instructor')!;
    const [teaching] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from schedules s join users u on u.id = s.instructor_id
            join instructor_profiles p on p.user_id = u.id where u.email = ${instructor.email}`,
    );
    expect(teaching!.n).toBeGreaterThan(0);
    // Passwords are fresh on every run, never part of the reproducible sample.
    expect(new Set(result.accounts.map((a) => a.password)).size).toBe(4);
  });

  it('writes one audit entry with the counts', async () => {
    const r = await rows<{ action: string; new_values: Record<string, number> }>(
      t.db,
      sql`select action, new_values from audit_logs where table_name = 'seed'`,
    );
    expect(r).toHaveLength(1);
    expect(r[0]!.action).toBe('Create');
    expect(r[0]!.new_values).toEqual(result.counts);
  });

  it('refuses a second run and writes nothing', async () => {
    const before = await tableCounts(t.db);
    await expect(seedDemoSchool(t.db, { today: TODAY })).rejects.toThrow(/only fills an empty database/);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('seedDemoSchool on another database', () => {
  let other: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    other = await createTestDatabase();
  });
  afterAll(() => other.drop());

  it('refuses a database with only a user in it', async () => {
    await buildUser(other.db, { email: 'first@admin.test', role: 'super_admin', password: null, firstName: '', lastName: '' });
    await expect(seedDemoSchool(other.db, { today: TODAY })).rejects.toThrow(/already has data \(users\)/);
    const c = await tableCounts(other.db);
    expect(c).toMatchObject({ users: 1, students: 0, programs: 0, audit: 0 });
    await other.db.execute(sql`delete from users`);
  });

  it('is reproducible and places class times in the school time zone', async () => {
    await other.db.execute(sql`update school_settings set time_zone = 'America/Chicago'`);
    const again = await seedDemoSchool(other.db, { today: TODAY });
    expect(again.counts).toEqual(result.counts);

    const fingerprint = sql`select string_agg(concat_ws('|', st.sis_student_id, st.first_name, st.last_name, a.session_date, a.status, a.minutes_attended),
                                               ',' order by st.sis_student_id, a.session_date, a.schedule_id) as f
                              from attendance_records a join students st on st.id = a.student_id`;
    const [a] = await rows<{ f: string }>(t.db, fingerprint);
    const [b] = await rows<{ f: string }>(other.db, fingerprint);
    expect(b!.f).toBe(a!.f);

    // A present scan is within a quarter hour of the start on the school's clock.
    const [off] = await rows<{ n: number }>(
      other.db,
      sql`select count(*)::int as n from attendance_records a join schedules s on s.id = a.schedule_id
           where a.status = 'present' and a.source = 'qr' and not a.is_manual_override
             and abs(extract(epoch from (a.scan_in_time at time zone 'America/Chicago') - (a.session_date + s.start_time))) > 15 * 60`,
    );
    expect(off!.n).toBe(0);
  });
});
