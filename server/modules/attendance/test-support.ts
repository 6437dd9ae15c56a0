import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { AttendanceRow } from '../../../common/attendance.ts';
import { ROTATE_MS, shortCodeAt, tokenAt } from '../qr-sessions/tokens.ts';
import { courses, programs, qrSessions, students as studentsTable } from '../../db/schema/index.ts';
import type { TestApp } from '../../test/helpers.ts';

// A class with a roster, an instructor and QR sessions, for the check-in tests of this module and
// of qr-sessions. Each test file builds its own (its own database); nothing is shared between files.

export type TestStudent = { id: number; sis: string; first: string; last: string; email: string };

/** A phone's browser as the server sees it: its address, its headers, its device cookie. */
export type Phone = { ip?: string; userAgent?: string; language?: string; device?: string | null };

export const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const PIXEL = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36';

export type TestClass = {
  scheduleId: number;
  instructor: { cookie: string; userId: number };
  admin: string;
  students: TestStudent[];
  /** Start a QR session as the instructor; returns its UUID and numeric id. */
  startSession: () => Promise<{ sessionId: string; id: number }>;
  /** The QR token and the six digits on the classroom screen now (server clock). */
  screen: (sessionId: string) => Promise<{ token: string; code: string; previousCode: string }>;
  /** Open the scan URL on a phone: the public read, with the QR token when given. */
  open: (sessionId: string, phone: Phone, token?: string) => Promise<LightMyRequestResponse>;
  /** Submit the form from a phone. */
  submit: (sessionId: string, s: TestStudent, phone: Phone, extra?: Record<string, unknown>) => Promise<LightMyRequestResponse>;
  /** A check-in as the scan page makes it: open the scan URL (keeping the cookie it gives), then submit with the pass (and `extra`: intent, confirm). */
  scan: (sessionId: string, s: TestStudent, phone: Phone, extra?: Record<string, unknown>) => Promise<{ res: LightMyRequestResponse; device: string | null }>;
  /** The class's roster for a day, as a user sees it (the instructor by default). */
  roster: (date: string, cookie?: string) => Promise<AttendanceRow[]>;
};

/** Headers and cookie of a phone's request. */
export function phoneRequest(phone: Phone) {
  return {
    remoteAddress: phone.ip ?? '10.0.0.1',
    headers: { 'user-agent': phone.userAgent ?? IPHONE, 'accept-language': phone.language ?? 'en-US,en;q=0.9' },
    ...(phone.device ? { cookies: { muster_device: phone.device } } : {}),
  };
}

/** The device cookie the server gave in a response, if any. */
export const deviceCookieOf = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'muster_device')?.value ?? null;

/**
 * A Monday class 08:00–12:00 in Chicago (course 2026-01-05 to 2026-06-01) with `size` students on
 * its roster; `tag` keeps several classes in one database apart. The caller's clock decides when
 * things happen; the school's time zone is set here.
 */
export async function seedClass(t: TestApp, size: number, tag = 'A'): Promise<TestClass> {
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: sa },
    payload: { attendance: { timeZone: 'America/Chicago' }, security: { sessionTimeoutMinutes: 1440 } },
  });
  const admin = (await t.signedIn('it_admin')).cookie;
  const instructor = await t.signedIn('instructor');
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'PN' }).returning({ id: programs.id })) as [{ id: number }];
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: `NUR-${tag}`, courseName: `Fundamentals of Nursing ${tag}`, programId })
    .returning({ id: courses.id })) as [{ id: number }];
  const students: TestStudent[] = [];
  for (let i = 0; i < size; i++) {
    const s = { sis: `STU-${tag}${2000 + i}`, first: `First${i}`, last: `${tag}Last${i}`, email: `student.${tag}${i}@student.edu` };
    const [{ id }] = (await t.db
      .insert(studentsTable)
      .values({ firstName: s.first, lastName: s.last, email: s.email, sisStudentId: s.sis, programId })
      .returning({ id: studentsTable.id })) as [{ id: number }];
    students.push({ id, ...s });
  }
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/schedules',
    headers: { cookie: admin },
    payload: {
      courseId,
      instructorId: instructor.userId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '12:00',
      roomNumber: 'B-204',
      courseStartDate: '2026-01-05',
      courseEndDate: '2026-06-01',
    },
  });
  if (res.statusCode !== 201) throw new Error(`schedule: ${res.statusCode} ${res.body}`);
  const scheduleId = res.json().id as number;

  const secretOf = async (sessionId: string) =>
    (await t.db.select({ secret: qrSessions.tokenSecret }).from(qrSessions).where(eq(qrSessions.sessionId, sessionId)))[0]!.secret;

  const cls: Omit<TestClass, 'scan' | 'roster'> = {
    scheduleId,
    instructor,
    admin,
    students,
    startSession: async () => {
      const started = await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: instructor.cookie }, payload: { scheduleId } });
      if (started.statusCode !== 201) throw new Error(`session: ${started.statusCode} ${started.body}`);
      return { sessionId: started.json().sessionId, id: started.json().id };
    },
    screen: async (sessionId) => {
      const secret = await secretOf(sessionId);
      const now = t.clock.now();
      const previous = new Date(now.getTime() - ROTATE_MS);
      return {
        token: tokenAt(secret, sessionId, now).token,
        code: shortCodeAt(secret, sessionId, now),
        previousCode: shortCodeAt(secret, sessionId, previous),
      };
    },
    open: (sessionId, phone, token) => t.app.inject({ url: `/api/qr-sessions/public/${sessionId}${token ? `?t=${token}` : ''}`, ...phoneRequest(phone) }),
    submit: (sessionId, s, phone, extra = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/attendance/submit',
        ...phoneRequest(phone),
        payload: { sessionId, studentId: s.sis, firstName: s.first, lastName: s.last, email: s.email, ...extra },
      }),
  };
  const scan: TestClass['scan'] = async (sessionId, s, phone, extra = {}) => {
    const opened = await cls.open(sessionId, phone, (await cls.screen(sessionId)).token);
    const device = phone.device ?? deviceCookieOf(opened);
    const res = await cls.submit(sessionId, s, { ...phone, device }, { pass: opened.json().pass, ...extra });
    return { res, device };
  };
  const roster: TestClass['roster'] = async (date, cookie = instructor.cookie) =>
    (await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}?date=${date}`, headers: { cookie } })).json();
  return { ...cls, scan, roster };
}

/** The n-th six-digit code (n ≥ 1) that is neither the code on the screen now nor the previous one. */
export function wrongCode(screen: { code: string; previousCode: string }, n = 1): string {
  let v = Number(screen.code);
  for (let i = 0; i < n;) {
    v = (v + 7919) % 1_000_000;
    const code = String(v).padStart(6, '0');
    if (code !== screen.code && code !== screen.previousCode) i++;
  }
  return String(v).padStart(6, '0');
}
