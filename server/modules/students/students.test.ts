import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDENT_HAS_ATTENDANCE } from '../../../common/students.ts';
import { buildAttendanceRecord, buildCourse, buildProgram, buildRosterEntry, buildSchedule, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let admin: string, support: string, instructor: string;
let programId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  instructor = (await t.signedIn('instructor')).cookie;
  programId = (await buildProgram(t.db, { programName: 'Practical Nursing', durationHours: '320' })).id;
});
afterAll(() => t.close());

const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/students', headers: { cookie }, payload });

describe('students', () => {
  it('creates with only first and last name; status defaults to enrolled', async () => {
    const res = await post(support, { firstName: 'Ana', lastName: 'Diaz' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ firstName: 'Ana', lastName: 'Diaz', status: 'enrolled', email: null, programId: null });
    expect((await auditEntries(t.db, 'students')).at(-1)).toMatchObject({ action: 'Create', record_id: String(res.json().id) });
  });

  it('names each invalid field and writes nothing', async () => {
    const before = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from students`)).rows[0]!.n;
    const res = await post(admin, { firstName: ' ', lastName: '', email: 'not-an-email', programId: 'x', status: 'dreaming' });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'firstName', 'lastName', 'programId', 'status']);
    expect((await post(admin, { firstName: 'A', lastName: 'B', programId: 99999 })).json().errors[0].field).toBe('programId');
    const after = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from students`)).rows[0]!.n;
    expect(after).toBe(before);
  });

  it('keeps SIS ids unique (409 naming the field)', async () => {
    expect((await post(admin, { firstName: 'Bo', lastName: 'Lee', sisStudentId: 'SIS-1' })).statusCode).toBe(201);
    const dup = await post(admin, { firstName: 'Cy', lastName: 'Ng', sisStudentId: 'SIS-1' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors[0].field).toBe('sisStudentId');
  });

  it('encrypts the SSN at rest and shows only the last four, only to admins', async () => {
    const res = await post(admin, { firstName: 'Dee', lastName: 'Park', socialSecurityNumber: '123-45-6789' });
    expect(res.json().ssnMasked).toBe('***-**-6789');
    const { rows } = await t.db.execute<{ ssn_encrypted: string }>(sql`select ssn_encrypted from students where id = ${res.json().id}`);
    expect(rows[0]!.ssn_encrypted).not.toContain('6789');
    expect(rows[0]!.ssn_encrypted).toMatch(/^v1\./);
    const asSupport = await t.app.inject({ url: `/api/students/${res.json().id}`, headers: { cookie: support } });
    expect(asSupport.json()).not.toHaveProperty('ssnMasked');
    expect(JSON.stringify((await auditEntries(t.db, 'students')).at(-1))).not.toContain('6789');
    expect((await post(support, { firstName: 'E', lastName: 'F', socialSecurityNumber: '123456789' })).statusCode).toBe(400);
  });

  it('updates and audits the changed fields', async () => {
    const s = (await post(admin, { firstName: 'Gil', lastName: 'Moss' })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/students/${s.id}`,
      headers: { cookie: support },
      payload: { firstName: 'Gil', lastName: 'Moss', email: 'gil@x.edu', programId, status: 'inactive' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'gil@x.edu', programId, programName: 'Practical Nursing', status: 'inactive' });
    expect((await auditEntries(t.db, 'students')).at(-1)).toMatchObject({
      action: 'Update',
      old_values: { email: null, status: 'enrolled' },
      new_values: { email: 'gil@x.edu', status: 'inactive' },
    });
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/students/999999', headers: { cookie: admin }, payload: { firstName: 'a', lastName: 'b' } })).statusCode,
    ).toBe(404);
  });

  it('deletes a student without history, refuses (409) one with attendance', async () => {
    const free = (await post(admin, { firstName: 'Hal', lastName: 'Free' })).json();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${free.id}`, headers: { cookie: support } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${free.id}`, headers: { cookie: support } })).statusCode).toBe(404);
    const kept = (await post(admin, { firstName: 'Ida', lastName: 'Kept' })).json();
    const course = await buildCourse(t.db, { courseCode: 'NUR-1', courseName: 'Fundamentals', programId: null });
    const schedule = await buildSchedule(t.db, { courseId: course.id });
    await buildAttendanceRecord(t.db, { studentId: kept.id, scheduleId: schedule.id, sessionDate: '2026-01-05', status: 'present', source: 'qr' });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/students/${kept.id}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(STUDENT_HAS_ATTENDANCE);
  });

  it('searches across name, e-mail, student and SIS ids, sorts and pages on the server', async () => {
    for (let i = 0; i < 60; i++) {
      await buildStudent(t.db, {
        firstName: `First${i}`,
        lastName: `Zed${String(i).padStart(2, '0')}`,
        email: `z${i}@bulk.edu`,
        sisStudentId: `BULK-${i}`,
        programId: null,
      });
    }
    const page2 = await t.app.inject({ url: '/api/students?search=zed&sort=lastName&order=desc&page=2&pageSize=25', headers: { cookie: support } });
    expect(page2.statusCode).toBe(200);
    expect(page2.headers['x-total-count']).toBe('60');
    expect(page2.json()).toHaveLength(25);
    expect(page2.json()[0].lastName).toBe('Zed34');
    // name sorts by last then first name, both in the chosen direction
    const byName = (await t.app.inject({ url: '/api/students?search=zed&sort=name&order=desc&pageSize=3', headers: { cookie: support } })).json();
    expect(byName.map((s: { lastName: string }) => s.lastName)).toEqual(['Zed59', 'Zed58', 'Zed57']);
    expect(
      (await t.app.inject({ url: '/api/students?search=BULK-42', headers: { cookie: support } })).json().map((s: { lastName: string }) => s.lastName),
    ).toEqual(['Zed42']);
    expect((await t.app.inject({ url: '/api/students?search=z7@bulk', headers: { cookie: support } })).json()).toHaveLength(1);
    const id = (await t.app.inject({ url: '/api/students?search=Zed05', headers: { cookie: support } })).json()[0].id;
    expect((await t.app.inject({ url: `/api/students?search=${id}`, headers: { cookie: support } })).json().some((s: { id: number }) => s.id === id)).toBe(
      true,
    );
    expect((await t.app.inject({ url: '/api/students?search=%25', headers: { cookie: support } })).json()).toHaveLength(0);
    // Without paging parameters the whole list comes back, as SPEC clients expect.
    const all = await t.app.inject({ url: '/api/students', headers: { cookie: instructor } });
    expect(all.json().length).toBe(Number(all.headers['x-total-count']));
    expect((await t.app.inject({ url: '/api/students?pageSize=0', headers: { cookie: support } })).statusCode).toBe(400);
  });

  it('lets instructors read but not change students', async () => {
    expect((await post(instructor, { firstName: 'No', lastName: 'Way' })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/students' })).statusCode).toBe(401);
  });
});

describe('need-to-know: instructors read only the students on their own rosters', () => {
  let own: { cookie: string; userId: number };
  let other: { cookie: string; userId: number };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    own = await t.signedIn('instructor');
    other = await t.signedIn('instructor');
    const student = async (key: string) => {
      const s = await buildStudent(t.db, {
        firstName: key,
        lastName: 'Roster',
        email: `${key.toLowerCase()}@roster.edu`,
        phone: '555-0100',
        sisStudentId: `ROSTER-${key}`,
        programId: null,
      });
      ids[key] = s.id;
    };
    for (const key of ['Mine1', 'Mine2', 'Theirs', 'Nobody']) await student(key);
    const schedule = async (instructorId: number, roster: string[]) => {
      const course = await buildCourse(t.db, {
        courseCode: `C-${Object.keys(ids).length}-${instructorId}-${roster.length}`,
        courseName: 'Course',
        programId: null,
      });
      const { id: scheduleId } = await buildSchedule(t.db, { courseId: course.id, instructorId, dayOfWeek: 2 });
      for (const key of roster) await buildRosterEntry(t.db, { scheduleId, studentId: ids[key]! });
    };
    // Mine2 is on two of the instructor's schedules: still listed once.
    await schedule(own.userId, ['Mine1', 'Mine2']);
    await schedule(own.userId, ['Mine2']);
    await schedule(other.userId, ['Theirs']);
  });

  const get = (cookie: string, url: string) => t.app.inject({ url, headers: { cookie } });
  const names = (res: { json: () => { firstName: string }[] }) => res.json().map((s) => s.firstName);

  it('lists only their roster students, with a true total, search and paging', async () => {
    const all = await get(own.cookie, '/api/students');
    expect(names(all)).toEqual(['Mine1', 'Mine2']);
    expect(all.headers['x-total-count']).toBe('2');
    expect(all.json()[0]).toMatchObject({ email: 'mine1@roster.edu', phone: '555-0100' });
    const page2 = await get(own.cookie, '/api/students?pageSize=1&page=2');
    expect(names(page2)).toEqual(['Mine2']);
    expect(page2.headers['x-total-count']).toBe('2');
    const past = await get(own.cookie, '/api/students?pageSize=1&page=5');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('2');
    // Searching for someone else's student, by name, SIS id or internal id, finds nothing.
    for (const q of ['Theirs', 'ROSTER-Nobody', String(ids.Theirs), 'roster.edu']) {
      const res = await get(own.cookie, `/api/students?search=${encodeURIComponent(q)}`);
      expect(
        names(res).filter((n) => n === 'Theirs' || n === 'Nobody'),
        q,
      ).toEqual([]);
    }
    expect(names(await get(other.cookie, '/api/students'))).toEqual(['Theirs']);
  });

  it('reads one of their students, and gets 404 (not 403) for anyone else, as for an id that does not exist', async () => {
    expect((await get(own.cookie, `/api/students/${ids.Mine1}`)).json()).toMatchObject({ firstName: 'Mine1', email: 'mine1@roster.edu' });
    const theirs = await get(own.cookie, `/api/students/${ids.Theirs}`);
    const missing = await get(own.cookie, '/api/students/999999');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
    expect((await get(own.cookie, `/api/students/${ids.Nobody}`)).statusCode).toBe(404);
  });

  it('an instructor with no schedules sees no one', async () => {
    const fresh = await t.signedIn('instructor');
    const res = await get(fresh.cookie, '/api/students');
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('support staff and administrators keep full access', async () => {
    for (const cookie of [support, admin]) {
      const found = names(await get(cookie, '/api/students?search=Roster&pageSize=50'));
      expect(found.sort()).toEqual(['Mine1', 'Mine2', 'Nobody', 'Theirs']);
      expect((await get(cookie, `/api/students/${ids.Nobody}`)).statusCode).toBe(200);
    }
  });
});
