import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFreshQrToken } from '../modules/qr-sessions/tokens.ts';
import { buildCourse, buildRosterEntry, buildStudent } from './factories.ts';
import { createTestApp, multipart, type TestApp } from './helpers.ts';

// One small test per class of crafted input from the outside review (SECURITY.md): each once
// answered 500. Every one must be a 400 that names the field, and write nothing.
let t: TestApp;
let admin: string;
let instr: { cookie: string; userId: number };
let scheduleId: number;
let sessionId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('super_admin')).cookie;
  instr = await t.signedIn('instructor');
  const courseId = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Fundamentals', programId: null })).id;
  const day = new Date().getUTCDay();
  const schedule = await t.app.inject({
    method: 'POST',
    url: '/api/schedules',
    headers: { cookie: admin },
    payload: {
      courseId,
      instructorId: instr.userId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: day,
      startTime: '00:00',
      endTime: '23:59',
      courseStartDate: '2020-01-06',
      courseEndDate: '2099-06-01',
    },
  });
  scheduleId = schedule.json().id;
  const session = await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: instr.cookie }, payload: { scheduleId } });
  sessionId = session.json().sessionId;
});
afterAll(() => t.close());

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
const fields = (res: Res) => (res.json().errors ?? []).map((e: { field: string }) => e.field);
const expect400 = (res: Res, field: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(fields(res)).toContain(field);
};
const count = async (table: string) => (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`)).rows[0]!.n;

describe('crafted input is a 400 naming the field, never a 500', () => {
  it('ids of 2^31 or more (PostgreSQL integer overflow), in paths, queries and bodies, also as numeric strings', async () => {
    expect400(await t.app.inject({ url: '/api/students/2147483648', headers: { cookie: admin } }), 'id');
    expect400(await t.app.inject({ url: '/api/schedules/9007199254740993/roster', headers: { cookie: admin } }), 'id');
    expect400(await t.app.inject({ url: '/api/attendance/clock-hours?studentId=2147483648', headers: { cookie: admin } }), 'studentId');
    expect400(await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: admin }, payload: { scheduleId: '2147483648' } }), 'scheduleId');
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/schedules/1/roster', headers: { cookie: admin }, payload: { studentIds: [2 ** 31] } }),
      'studentIds.0',
    );
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/programs', headers: { cookie: admin }, payload: { programName: 'Big', capacity: 2 ** 31 } }),
      'capacity',
    );
    // The largest id is still an id: a plain 404.
    expect((await t.app.inject({ url: '/api/students/2147483647', headers: { cookie: admin } })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: admin }, payload: { scheduleId: '2147483647' } })).statusCode,
    ).toBe(404);
    // A number typed in the search box is matched against ids only when it can be one.
    expect((await t.app.inject({ url: '/api/students?search=99999999999', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('prototype keys as lookups (?sort=constructor)', async () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect400(await t.app.inject({ url: `/api/students?sort=${key}`, headers: { cookie: admin } }), 'sort');
    }
    expect((await t.app.inject({ url: '/api/students?sort=email&order=desc', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('dates that pass a YYYY-MM-DD regex but do not exist (2026-02-30), in bodies and queries', async () => {
    const before = await count('attendance_records');
    const student = (await buildStudent(t.db, { firstName: 'Ana', lastName: 'Diaz', programId: null })).id;
    expect400(
      await t.app.inject({
        method: 'POST',
        url: '/api/attendance',
        headers: { cookie: admin },
        payload: { scheduleId, studentId: student, status: 'present', overrideReason: 'Paper sign-in sheet', sessionDate: '2026-02-30' },
      }),
      'sessionDate',
    );
    expect(await count('attendance_records')).toBe(before);
    expect400(await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}?date=2026-02-30`, headers: { cookie: admin } }), 'date');
    expect400(await t.app.inject({ url: '/api/audit-logs?startDate=2026-13-01', headers: { cookie: admin } }), 'startDate');
    expect400(await t.app.inject({ url: '/api/attendance/clock-hours?from=yesterday', headers: { cookie: admin } }), 'from');
    expect400(await t.app.inject({ url: '/api/export/attendance?endDate=2025-02-29', headers: { cookie: admin } }), 'endDate');
    // Year 0 parses in JavaScript but not in PostgreSQL.
    expect400(
      await t.app.inject({
        method: 'POST',
        url: '/api/students',
        headers: { cookie: admin },
        payload: { firstName: 'A', lastName: 'B', enrollmentDate: '0000-01-01' },
      }),
      'enrollmentDate',
    );
    expect((await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}?date=2024-02-29`, headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('NUL characters and unpaired surrogates in strings (PostgreSQL text and jsonb refuse them)', async () => {
    const before = await count('students');
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/students', headers: { cookie: admin }, payload: { firstName: 'A\u0000', lastName: 'B' } }),
      'firstName',
    );
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/students', headers: { cookie: admin }, payload: { firstName: 'A', lastName: '\ud800B' } }),
      'lastName',
    );
    expect(await count('students')).toBe(before);
    expect400(await t.app.inject({ url: '/api/students?search=a%00b', headers: { cookie: admin } }), 'search');
    expect400(await t.app.inject({ url: '/api/audit-logs/export?search=%00', headers: { cookie: admin } }), 'search');
    expect400(await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x\u0000@example.edu', password: 'whatever' } }), 'email');
  });

  it('text longer than an index entry can hold (a 3,000-character e-mail passes an e-mail regex)', async () => {
    // Random letters: PostgreSQL compresses index entries, so a run of one letter would still fit.
    const long = `${randomBytes(2_400).toString('base64url').replace(/[-_]/g, 'x')}@example.edu`;
    expect400(
      await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { cookie: admin },
        payload: { firstName: 'A', lastName: 'B', email: long, username: 'longmail', role: 'instructor' },
      }),
      'email',
    );
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/students', headers: { cookie: admin }, payload: { firstName: 'A', lastName: 'B', email: long } }),
      'email',
    );
  });

  it('non-ASCII QR tokens, passes and codes are refused by their alphabet', async () => {
    expect400(await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${encodeURIComponent('é'.repeat(12))}` }), 't');
    const submit = (extra: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/attendance/submit',
        payload: { sessionId, studentId: 'S-1', firstName: 'A', lastName: 'B', email: 'a@b.edu', ...extra },
      });
    expect400(await submit({ token: 'ü'.repeat(12) }), 'token');
    expect400(await submit({ pass: `${Date.now().toString(36)}.${'ß'.repeat(22)}` }), 'pass');
    expect400(await t.app.inject({ method: 'POST', url: '/api/qr-sessions/code', payload: { code: '١٢٣٤٥٦' } }), 'code');
    expect400(
      await t.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token: 'ö'.repeat(43), password: 'long enough password' } }),
      'token',
    ); // And below the schema, the comparison answers false rather than throwing.
    expect(isFreshQrToken(Buffer.alloc(32, 1), sessionId, 'é'.repeat(12), new Date())).toBe(false);
  });

  it('broken multipart bodies are a 400 with a clear message', async () => {
    const before = await count('file_uploads');
    const upload = (payload: string | Buffer, contentType: string) =>
      t.app.inject({ method: 'POST', url: '/api/upload/students', headers: { cookie: admin, 'content-type': contentType }, payload });
    const truncated = await upload(
      '--XX\r\ncontent-disposition: form-data; name="file"; filename="s.csv"\r\n\r\nfirstName,lastName\r\nA,B',
      'multipart/form-data; boundary=XX',
    );
    expect(truncated.statusCode, truncated.body).toBe(400);
    expect(truncated.json().message).toMatch(/multipart/i);
    const noBoundary = await upload('whatever', 'multipart/form-data');
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    expect(noBoundary.json().message).toMatch(/multipart/i);
    const badHeader = await upload('--XX\r\nnot a header\r\n\r\nx\r\n--XX--\r\n', 'multipart/form-data; boundary=XX');
    expect(badHeader.statusCode, badHeader.body).toBe(400);
    // A file name PostgreSQL cannot store is refused, naming the file.
    const nul = multipart('stu\u0000dents.csv', 'firstName,lastName\nA,B\n');
    const named = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...nul.headers }, payload: nul.payload });
    expect400(named, 'file');
    expect(await count('file_uploads')).toBe(before);
  });

  it('NUL characters inside an uploaded course file name the row and column', async () => {
    const file = multipart('courses.csv', 'courseCode,courseName\nNUR-900,"Bad\u0000Name"\n');
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...file.headers }, payload: file.payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ row: 2, column: 'courseName' })]);
  });

  it('a phone clock outside what PostgreSQL can store is a 400 naming scanInTime', async () => {
    const studentId = (await buildStudent(t.db, { firstName: 'Cy', lastName: 'Ng', sisStudentId: 'S-77', programId: null })).id;
    await buildRosterEntry(t.db, { scheduleId, studentId });
    const image = await t.app.inject({ url: `/api/qr-sessions/${sessionId}/qr-image`, headers: { cookie: instr.cookie } });
    const token = new URL(image.json().attendanceUrl).searchParams.get('t')!;
    const before = await count('attendance_records');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/attendance/submit',
      payload: { sessionId, studentId: 'S-77', firstName: 'Cy', lastName: 'Ng', email: 'cy@b.edu', token, scanInTime: '-271821-04-20T00:00:00Z' },
    });
    expect400(res, 'scanInTime');
    expect(await count('attendance_records')).toBe(before);
  });
});
