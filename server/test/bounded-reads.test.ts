import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../common/roles.ts';
import { courses, programPolicies, programs, scheduleRosters, schedules, students } from '../db/schema/index.ts';
import { createTestApp, fixedClock, type TestApp } from './helpers.ts';

/*
 * Decision 038: no read a role may make may cost the server more than a bounded amount. A school of
 * 150 students on one program whose enrolment dates were set to 1900 (support staff can edit them),
 * with a term of classes and records. Every read whose cost a parameter sets is called as every
 * role with the farthest dates and the largest pages the schemas allow; far-future ledger dates
 * are refused (400 naming the field), the rest answer within a bound of time and memory that a
 * walk of 46,000 days per student (what 1900 to 2200 used to cost) would break by far.
 */

const clock = fixedClock('2026-11-20T18:00:00Z');
const STUDENTS = 150;
let t: TestApp;
const cookies = {} as Record<Role, string>;
let studentId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  for (const role of ROLES) cookies[role] = (await t.signedIn(role)).cookie;
  // The instructor teaches every class: their need-to-know covers the whole school here.
  const instructor = await t.signedIn('instructor');
  cookies.instructor = instructor.cookie;
  const instructorId = instructor.userId;
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Practical Nursing' }).returning({ id: programs.id })) as [{ id: number }];
  await t.db.insert(programPolicies).values({ programId, programHours: '900', programWeeks: '40' });
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'PN-101', courseName: 'Nursing I', programId, clockHours: '120' })
    .returning({ id: courses.id })) as [{ id: number }];
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek,
        startTime: '08:00',
        endTime: '14:00',
        courseStartDate: '2026-01-05',
        courseEndDate: '2027-06-30',
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleIds.push(id);
  }
  const rows = Array.from({ length: STUDENTS }, (_, i) => ({
    firstName: `First${i}`,
    lastName: `Last${i}`,
    sisStudentId: `SIS-${i}`,
    programId,
    enrollmentDate: '1900-01-01',
    status: 'active' as const,
  }));
  const inserted = await t.db.insert(students).values(rows).returning({ id: students.id });
  studentId = inserted[0]!.id;
  await t.db.insert(scheduleRosters).values(inserted.flatMap((s) => scheduleIds.map((scheduleId) => ({ scheduleId, studentId: s.id }))));
  await t.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source, is_manual_override, override_reason, minutes_attended, scheduled_minutes)
    select r.student_id, s.id, d::date, 'present', 'manual', true, 'Paper sheet', 360, 360
      from schedule_rosters r join schedules s on s.id = r.schedule_id
      cross join generate_series('2026-01-05'::date, '2026-11-19'::date, interval '1 day') d
     where extract(dow from d) = s.day_of_week and r.student_id % 3 <> 0`);
  await t.db.execute(sql`analyze`);
}, 120_000);
afterAll(() => t?.close());

const FAR = '2200-12-31';
const FAR_PAST = '1900-01-01';

/** Reads whose cost a date names: a ledger may not stand after today. */
const LEDGER_DATES: { url: () => string; field: string }[] = [
  { url: () => `/api/hours?pageSize=200&asOf=${FAR}`, field: 'asOf' },
  { url: () => `/api/students/${studentId}/hours?asOf=${FAR}`, field: 'asOf' },
  { url: () => `/api/compliance/overview?asOf=${FAR}`, field: 'asOf' },
  { url: () => `/api/compliance/withdrawal-watch?asOf=${FAR}`, field: 'asOf' },
  { url: () => `/api/reports/sap?asOf=${FAR}`, field: 'asOf' },
  { url: () => `/api/export/hours?to=${FAR}`, field: 'to' },
  { url: () => `/api/hours?asOf=2026-11-21`, field: 'asOf' },
];

/** Reads at their widest: the farthest ranges and the largest pages the schemas allow. */
const WIDEST: (() => string)[] = [
  () => `/api/hours?pageSize=200`,
  () => `/api/students/${studentId}/hours?from=${FAR_PAST}&to=1902-01-01`,
  () => `/api/students/${studentId}/hours`,
  () => `/api/students/${studentId}/records?from=${FAR_PAST}&to=${FAR}`,
  () => `/api/students/${studentId}/time-card.pdf?from=2025-11-21&to=2027-11-20`,
  () => `/api/compliance/overview`,
  () => `/api/compliance/withdrawal-watch`,
  () => `/api/reports/sap`,
  () => `/api/reports/monthly-hours?month=2200-12`,
  () => `/api/reports/monthly-hours?month=2026-11&format=pdf`,
  () => `/api/export/hours?from=${FAR_PAST}`,
  () => `/api/export/attendance?startDate=${FAR_PAST}&endDate=${FAR}`,
  () => `/api/audit-logs?pageSize=500&startDate=${FAR_PAST}&endDate=${FAR}`,
  () => `/api/students?pageSize=500`,
  () => `/api/calendar/closures?from=${FAR_PAST}&to=${FAR}`,
];

describe('reads whose cost a caller sets are bounded', () => {
  it.each(LEDGER_DATES)('refuses a ledger date after today: $url', async ({ url, field }) => {
    for (const role of ROLES) {
      const res = await t.app.inject({ url: url(), headers: { cookie: cookies[role] } });
      // Roles the permission table refuses get 403 before any work; the others a 400 naming the field.
      if (res.statusCode === 403) continue;
      expect(res.statusCode, `${role} ${url()}`).toBe(400);
      expect(res.json().errors, `${role} ${url()}`).toEqual([expect.objectContaining({ field })]);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
  });

  it('answers the widest reads of every role within a bound of time and memory', async () => {
    let peak = process.memoryUsage().heapUsed;
    const base = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    try {
      for (const role of ROLES) {
        for (const url of WIDEST) {
          const started = performance.now();
          const res = await t.app.inject({ url: url(), headers: { cookie: cookies[role] } });
          const ms = performance.now() - started;
          expect([200, 403], `${role} ${url()}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
          // A safety bound, not a speed target (those live in bench/): walking 1900 to today for
          // 150 students took far longer than this.
          expect(ms, `${role} ${url()}`).toBeLessThan(15_000);
        }
      }
    } finally {
      clearInterval(sampler);
    }
    expect((peak - base) / 2 ** 20).toBeLessThan(400);
  }, 300_000);

  it('a student page of the hours walks from the first class, not from an enrolment date of 1900', async () => {
    const res = await t.app.inject({ url: `/api/students/${studentId}/hours?from=2025-01-01&to=2026-11-20`, headers: { cookie: cookies.super_admin } });
    expect(res.statusCode).toBe(200);
    const h = res.json();
    expect(h.enrollmentDate).toBe('1900-01-01');
    expect(h.days[0].date).toBe('2026-01-05');
    expect(h.days.length).toBeLessThanOrEqual(366);
  });

  it("serves a screen's few reads of one user in turn and refuses a burst, not queued without end", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.app.inject({ url: '/api/compliance/overview', headers: { cookie: cookies.support_staff } })),
    );
    const codes = answers.map((r) => r.statusCode);
    // Two at a time and four waiting their turn are served; the rest are refused at once.
    expect(codes.filter((c) => c === 200).length).toBe(6);
    expect(codes.filter((c) => c === 429).length).toBe(4);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().message).toMatch(/reports being prepared/);
    // The turns are given back: the same user is served again afterwards.
    expect((await t.app.inject({ url: '/api/compliance/overview', headers: { cookie: cookies.support_staff } })).statusCode).toBe(200);
  }, 120_000);
});
