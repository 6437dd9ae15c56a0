import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, missedPunchRequests, studentHoursLinks, students as studentsTable } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

/*
 * Missed-punch requests (docs/decisions/053). One Monday class 08:00–12:00 in Chicago
 * (seedClass); March 2026 after the DST change is CDT (UTC−5), so school time "08:05" is 13:05Z.
 * Read on Tuesday 17 March 2026, 10:00 school time: the last 14 days are 3–17 March, whose
 * meetings are Monday 9 and Monday 16 March.
 *
 * Records (scanned, present):  s0 (phone A): 2 Mar 08:00–12:00, 9 Mar 07:58–12:01, 16 Mar 08:05 and no check-out.
 *                              s1 (phone B): 9 Mar 08:00–12:00, 16 Mar 08:03 and no check-out.
 *                              s2: none (no check-in on 9 or 16 March).
 *                              s3 (phone D): 9 and 16 Mar 08:00–12:00 (nothing to correct).
 */

const clock = fixedClock('2026-03-17T15:00:00Z');
let t: TestApp;
let cls: TestClass;
let admin: string;
let otherInstructor: string;
const PHONE = { A: 'phoneAAAAAAAAAAAAAAAAAAA', B: 'phoneBBBBBBBBBBBBBBBBBBB', D: 'phoneDDDDDDDDDDDDDDDDDDD', unknown: 'phoneZZZZZZZZZZZZZZZZZZZ' };
const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00-05:00`);
const s = (i: number) => cls.students[i]!;

async function record(student: number, date: string, checkIn: string, checkOut: string | null, device: string | null) {
  // 2 March is still CST (UTC−6).
  const time = (hhmm: string) => (date < '2026-03-08' ? new Date(`${date}T${hhmm}:00-06:00`) : at(date, hhmm));
  await t.db.insert(attendanceRecords).values({
    studentId: s(student).id,
    scheduleId: cls.scheduleId,
    sessionDate: date,
    status: 'present',
    source: 'qr',
    scanInTime: time(checkIn),
    scanOutTime: checkOut ? time(checkOut) : null,
    scheduledMinutes: 240,
    deviceId: device,
  });
}

/** An e-mailed hours link of the student (its token; only the hash is stored, as the module stores it). */
async function hoursLink(student: number): Promise<string> {
  const token = `tok${student}`.padEnd(43, 'x');
  await t.db
    .insert(studentHoursLinks)
    .values({ tokenHash: createHash('sha256').update(token).digest('hex'), studentId: s(student).id, expiresAt: new Date('2026-03-24T00:00:00Z') });
  return token;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (url: string, fields: Record<string, string>, opts: { device?: string; ip?: string; language?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: opts.ip ?? '10.1.0.1',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': opts.language ?? 'en-US' },
    ...(opts.device ? { cookies: { muster_device: opts.device } } : {}),
    payload: form(fields),
  });
const page = (url: string, opts: { device?: string; language?: string } = {}) =>
  t.app.inject({ url, headers: { 'accept-language': opts.language ?? 'en-US' }, ...(opts.device ? { cookies: { muster_device: opts.device } } : {}) });
const api = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const requestsOf = (student: number) =>
  t.db
    .select()
    .from(missedPunchRequests)
    .where(eq(missedPunchRequests.studentId, s(student).id))
    .orderBy(missedPunchRequests.id);
const dayOf = async (student: number, date: string) => {
  const res = await api('GET', `/api/students/${s(student).id}/hours?asOf=2026-03-17&from=${date}&to=${date}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().days.find((d: { date: string }) => d.date === date);
};

let tokens: string[];

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 4);
  admin = cls.admin;
  otherInstructor = (await t.signedIn('instructor')).cookie;
  const [{ programId }] = (await t.db
    .select({ programId: studentsTable.programId })
    .from(studentsTable)
    .where(eq(studentsTable.id, s(0).id))) as [{ programId: number }];
  // Mississippi-style: a meeting without a check-out earns nothing until an exception is approved.
  const rules = await t.app.inject({
    method: 'PUT',
    url: `/api/programs/${programId}/time-clock`,
    headers: { cookie: admin },
    payload: { missingCheckOut: 'no_credit', effectiveFrom: '2026-01-05' },
  });
  expect(rules.statusCode, rules.body).toBe(200);
  await record(0, '2026-03-02', '08:00', '12:00', PHONE.A);
  await record(0, '2026-03-09', '07:58', '12:01', PHONE.A);
  await record(0, '2026-03-16', '08:05', null, PHONE.A);
  await record(1, '2026-03-09', '08:00', '12:00', PHONE.B);
  await record(1, '2026-03-16', '08:03', null, PHONE.B);
  await record(3, '2026-03-09', '08:00', '12:00', PHONE.D);
  await record(3, '2026-03-16', '08:00', '12:00', PHONE.D);
  tokens = [await hoursLink(0), await hoursLink(1), await hoursLink(2)];
});
afterAll(() => t?.close());

describe('asking from the hours link', () => {
  it('lists the student’s meetings with a punch missing, a form each, linked from the read-only hours page', async () => {
    const hours = await page(`/my-hours/${tokens[0]}`);
    expect(hours.statusCode).toBe(200);
    expect(hours.body).toContain(`href="/my-hours/${tokens[0]}/missed-punch"`);
    expect(hours.body).not.toContain('<form');

    const res = await page(`/my-hours/${tokens[0]}/missed-punch`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Forgot to check in or out?');
    expect(res.body).toContain('Fundamentals of Nursing A · Monday, March 16');
    expect(res.body).toContain('No check-out · Checked in at 8:05 AM');
    expect(res.body).toContain(`<form method="post" action="/my-hours/${tokens[0]}/missed-punch">`);
    expect(res.body).not.toContain('name="checkIn"'); // the check-in is recorded
    expect(res.body).not.toContain('<script');
    expect(res.body).not.toContain('March 9'); // complete
    expect(res.headers['cache-control']).toBe('no-store');

    // Never checked in: both times asked, for each meeting of the last 14 days.
    const none = await page(`/my-hours/${tokens[2]}/missed-punch?lang=es`);
    expect(none.body).toContain('<html lang="es">');
    expect(none.body).toContain('Sin entrada registrada');
    expect((none.body.match(/name="checkIn"/g) ?? []).length).toBe(2);
    expect(none.body).toContain('lunes, 16 de marzo');
    expect(none.body).toContain('lunes, 9 de marzo');
  });

  it('files a request, then says the student already asked', async () => {
    const url = `/my-hours/${tokens[0]}/missed-punch`;
    const res = await post(url, {
      scheduleId: String(cls.scheduleId),
      sessionDate: '2026-03-16',
      checkOut: '11:55',
      reason: 'My phone died at the end of class',
      language: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Your request was sent. Your instructor will approve or decline it.');
    expect(res.body).toContain('<p role="status">You already asked; your instructor will decide.</p>');
    const [request] = await requestsOf(0);
    expect(request).toMatchObject({
      scheduleId: cls.scheduleId,
      sessionDate: '2026-03-16',
      checkInAt: null,
      source: 'hours_link',
      status: 'pending',
      reason: 'My phone died at the end of class',
    });
    expect(request!.checkOutAt!.toISOString()).toBe('2026-03-16T16:55:00.000Z');
    expect(request!.recordId).not.toBeNull();
    const audit = (await auditEntries(t.db, 'missed_punch_requests')).at(-1)!;
    expect(audit).toMatchObject({ action: 'Create', user_id: null, record_id: String(request!.id) });

    const again = await post(url, { scheduleId: String(cls.scheduleId), sessionDate: '2026-03-16', checkOut: '11:50', reason: 'Again', language: 'es' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Ya lo pediste; tu instructor decidirá.');
    expect(await requestsOf(0)).toHaveLength(1);
  });

  it('refuses times outside the class or a check-out before the check-in, on the form, keeping what was typed', async () => {
    const url = `/my-hours/${tokens[2]}/missed-punch`;
    const meeting = { scheduleId: String(cls.scheduleId), sessionDate: '2026-03-16', language: 'en' };
    const outside = await post(url, { ...meeting, checkIn: '07:15', checkOut: '12:30', reason: 'Forgot' });
    expect(outside.statusCode).toBe(400);
    expect(outside.body).toContain('Check the fields marked below.');
    expect(outside.body).toContain('The time must be during the class, from 8:00 AM to 12:00 PM.');
    expect(outside.body).toMatch(/name="checkIn" type="time" required value="07:15" aria-describedby="m\d-checkIn-hint m\d-checkIn-error" aria-invalid="true"/);
    const backwards = await post(url, { ...meeting, checkIn: '10:00', checkOut: '09:00', reason: 'Forgot' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain('The time you left must be after you arrived (10:00 AM).');
    const blank = await post(url, { ...meeting, checkIn: '', checkOut: 'half past', reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Enter the time you arrived.');
    expect(blank.body).toContain('Enter a time such as 14:30.');
    expect(blank.body).toContain('Tell your instructor why.');
    const es = await post(url, { ...meeting, language: 'es', checkIn: '07:15', checkOut: '11:00', reason: 'x' });
    expect(es.body).toContain('La hora debe estar dentro de la clase, de 8:00');
    // A class the student is not on, or a day it did not meet: the same answer as any meeting not theirs.
    const notTheirs = await post(url, { ...meeting, sessionDate: '2026-03-17', checkIn: '08:00', checkOut: '12:00', reason: 'x' });
    expect(notTheirs.statusCode).toBe(409);
    expect(notTheirs.body).toContain('This class cannot be corrected here. Ask your instructor.');
    expect(await requestsOf(2)).toHaveLength(0);

    const good = await post(url, { ...meeting, checkIn: '08:15', checkOut: '12:00', reason: 'Bus was late and I forgot to scan' });
    expect(good.statusCode).toBe(200);
    const [request] = await requestsOf(2);
    expect(request!.checkInAt!.toISOString()).toBe('2026-03-16T13:15:00.000Z');
    expect(request!.checkOutAt!.toISOString()).toBe('2026-03-16T17:00:00.000Z');
    expect(request!.recordId).toBeNull();
  });

  it('answers an unknown or expired link with the same page', async () => {
    const unknown = await page(`/my-hours/${'Q'.repeat(43)}/missed-punch`);
    const madeUp = await post(`/my-hours/${'R'.repeat(43)}/missed-punch`, {
      scheduleId: String(cls.scheduleId),
      sessionDate: '2026-03-16',
      checkOut: '11:00',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    expect(madeUp.statusCode).toBe(404);
    expect(unknown.body.replaceAll('Q'.repeat(43), 'T')).toBe(madeUp.body.replaceAll('R'.repeat(43), 'T'));
    expect(unknown.body).toContain('This link has expired or is not complete.');
  });
});

describe('asking from the phone that checked in', () => {
  const URL = '/attendance/scan/missed-punch';

  it('lists only this phone’s check-ins without a check-out; an unknown phone sees what a phone with none sees', async () => {
    const b = await page(URL, { device: PHONE.B });
    expect(b.statusCode).toBe(200);
    expect(b.body).toContain('For First1');
    expect(b.body).toContain('No check-out · Checked in at 8:03 AM');
    expect(b.body).not.toContain('First0');
    const nothing = await page(URL, { device: PHONE.D });
    const unknown = await page(URL, { device: PHONE.unknown });
    const fresh = await page(URL);
    expect(nothing.body).toContain('Nothing to correct');
    expect(unknown.body).toBe(nothing.body);
    expect(fresh.body).toBe(nothing.body);
    expect(fresh.cookies.filter((c) => c.name === 'muster_device').map((c) => c.path)).toContain('/attendance/scan');
    // The scan page's link lands here, where the device cookie reaches.
    const link = await page('/attendance/missed-punch?lang=es');
    expect(link.statusCode).toBe(303);
    expect(link.headers.location).toBe('/attendance/scan/missed-punch?lang=es');
  });

  it('files for the phone’s student; another phone asking for that meeting gets the same answer as for any meeting not its own', async () => {
    const meeting = {
      scheduleId: String(cls.scheduleId),
      sessionDate: '2026-03-16',
      checkOut: '11:30',
      reason: 'Left for the clinic, forgot to scan out',
      language: 'en',
    };
    const stranger = await post(URL, meeting, { device: PHONE.unknown });
    const other = await post(URL, meeting, { device: PHONE.D });
    expect(stranger.statusCode).toBe(409);
    expect(other.statusCode).toBe(409);
    expect(stranger.body).toBe(other.body);
    expect(await requestsOf(1)).toHaveLength(0);
    const res = await post(URL, meeting, { device: PHONE.B });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Your request was sent.');
    expect(await requestsOf(1)).toEqual([expect.objectContaining({ source: 'scan_page', status: 'pending', checkOutAt: new Date('2026-03-16T16:30:00Z') })]);
  });

  it('is rate-limited per address, with a page that says so', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await post(URL, { scheduleId: '1', sessionDate: '2026-03-16', reason: 'x' }, { ip: '198.51.100.7', device: PHONE.unknown })).statusCode);
    expect(statuses.every((code) => code === 409)).toBe(true);
    const limited = await post(URL, { scheduleId: '1', sessionDate: '2026-03-16', reason: 'x' }, { ip: '198.51.100.7', language: 'es' });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Demasiadas solicitudes desde este dispositivo.');
    // Another address has its own budget.
    expect((await post(URL, { scheduleId: '1', sessionDate: '2026-03-16', reason: 'x' }, { ip: '198.51.100.8' })).statusCode).toBe(409);
  });
});

describe('staff decide', () => {
  const idOf = async (student: number) => (await requestsOf(student)).at(-1)!.id;

  it('lists the requests a staff member may decide, bounded, instructors their own classes only', async () => {
    const mine = await api('GET', `/api/missed-punch-requests?status=pending&scheduleId=${cls.scheduleId}&date=2026-03-16`, cls.instructor.cookie);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().total).toBe(3);
    expect(
      mine
        .json()
        .items.map((r: { studentName: string }) => r.studentName)
        .sort(),
    ).toEqual(['First0 ALast0', 'First1 ALast1', 'First2 ALast2']);
    expect(mine.json().items.find((r: { studentId: number }) => r.studentId === s(0).id)).toMatchObject({
      sisStudentId: 'STU-A2000',
      courseName: 'Fundamentals of Nursing A',
      checkInAt: null,
      checkOutAt: '2026-03-16T16:55:00.000Z',
      source: 'hours_link',
      status: 'pending',
      decidedAt: null,
      decidedBy: null,
    });
    const paged = await api('GET', '/api/missed-punch-requests?pageSize=2&page=2', admin);
    expect(paged.json()).toMatchObject({ total: 3, items: [expect.any(Object)] });
    expect((await api('GET', '/api/missed-punch-requests?pageSize=101', admin)).json().errors).toEqual([expect.objectContaining({ field: 'pageSize' })]);
    expect((await api('GET', '/api/missed-punch-requests?status=open', admin)).json().errors).toEqual([expect.objectContaining({ field: 'status' })]);
    expect((await api('GET', '/api/missed-punch-requests', otherInstructor)).json()).toEqual({ items: [], total: 0 });
    expect((await api('GET', `/api/missed-punch-requests?scheduleId=${cls.scheduleId}`, otherInstructor)).statusCode).toBe(403);
  });

  it('refuses the instructor of another class', async () => {
    const id = await idOf(0);
    expect((await api('POST', `/api/missed-punch-requests/${id}/approve`, otherInstructor, { reason: 'Yes' })).statusCode).toBe(403);
    expect((await api('POST', `/api/missed-punch-requests/${id}/decline`, otherInstructor, { reason: 'No' })).statusCode).toBe(403);
    expect((await api('POST', '/api/missed-punch-requests/999999/approve', admin, { reason: 'Yes' })).statusCode).toBe(404);
    expect((await api('POST', `/api/missed-punch-requests/${id}/approve`, admin, { reason: '' })).json().errors).toEqual([
      expect.objectContaining({ field: 'reason' }),
    ]);
    expect((await requestsOf(0))[0]!.status).toBe('pending');
  });

  it('approves: the record gets the check-out, the correction is flagged, and the no-credit ledger credits exactly the approved minutes', async () => {
    // Before: checked in 08:05, no check-out: 0 credited, 08:05–12:00 = 235 minutes pending an exception.
    expect(await dayOf(0, '2026-03-16')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 0, pendingExceptionMinutes: 235 });
    expect((await api('GET', `/api/students/${s(0).id}/exceptions`, admin)).json()).toEqual({
      exceptions: 1,
      meetingsAttended: 3,
      exceptionRate: 33.3,
      openRequests: 1,
    });

    const id = await idOf(0);
    const res = await api('POST', `/api/missed-punch-requests/${id}/approve`, cls.instructor.cookie, { reason: 'I saw her leave at 11:55' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      status: 'approved',
      decisionReason: 'I saw her leave at 11:55',
      decidedBy: 'Test instructor',
      decidedAt: clock.now().toISOString(),
    });

    const [rec] = await t.db.select().from(attendanceRecords).where(eq(attendanceRecords.id, res.json().recordId));
    // 08:05–11:55: present (in within the 10-minute late threshold, out within the 10-minute early-leave one), 230 minutes.
    expect(rec).toMatchObject({
      status: 'present',
      minutesAttended: 230,
      isManualOverride: true,
      overrideReason: 'Missed-punch request approved: I saw her leave at 11:55',
    });
    expect(rec!.scanOutTime!.toISOString()).toBe('2026-03-16T16:55:00.000Z');
    const corrections = (
      await t.db.execute<{
        missed_punch_request_id: number;
        reason: string;
        before: { scanOutTime: string | null };
        after: { scanOutTime: string; minutesAttended: number };
      }>(sql`select missed_punch_request_id, reason, before, after from attendance_corrections where attendance_record_id = ${rec!.id}`)
    ).rows;
    expect(corrections).toEqual([
      expect.objectContaining({
        missed_punch_request_id: id,
        reason: 'Missed-punch request approved: I saw her leave at 11:55',
        before: expect.objectContaining({ scanOutTime: null }),
        after: expect.objectContaining({ scanOutTime: '2026-03-16T16:55:00.000Z', minutesAttended: 230 }),
      }),
    ]);
    expect((await auditEntries(t.db, 'attendance')).at(-1)).toMatchObject({ action: 'Update', record_id: String(rec!.id), user_id: cls.instructor.userId });
    expect((await auditEntries(t.db, 'missed_punch_requests')).at(-1)).toMatchObject({
      action: 'Update',
      record_id: String(id),
      old_values: { status: 'pending' },
      new_values: expect.objectContaining({ status: 'approved' }),
    });

    // After: exactly the approved minutes, nothing pending.
    expect(await dayOf(0, '2026-03-16')).toMatchObject({ attendedMinutes: 230, pendingExceptionMinutes: 0 });
    expect((await api('GET', `/api/students/${s(0).id}/exceptions`, admin)).json()).toEqual({
      exceptions: 1,
      meetingsAttended: 3,
      exceptionRate: 33.3,
      openRequests: 0,
    });
    // Decided once.
    expect((await api('POST', `/api/missed-punch-requests/${id}/approve`, admin, { reason: 'Again' })).statusCode).toBe(409);
    expect((await api('POST', `/api/missed-punch-requests/${id}/decline`, admin, { reason: 'No' })).statusCode).toBe(409);
    // The meeting is complete: nothing left to ask about.
    expect((await page(`/my-hours/${tokens[0]}/missed-punch`)).body).toContain('Nothing to correct');
  });

  it('approves a missed check-in with adjusted times: a late record where there was none', async () => {
    const id = await idOf(2);
    const outside = await api('POST', `/api/missed-punch-requests/${id}/approve`, admin, { reason: 'x', checkInAt: '2026-03-16T12:00:00Z' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors).toEqual([expect.objectContaining({ field: 'checkInAt' })]);
    const res = await api('POST', `/api/missed-punch-requests/${id}/approve`, admin, { reason: 'Camera shows 08:20', checkInAt: '2026-03-16T13:20:00Z' });
    expect(res.statusCode, res.body).toBe(200);
    const [rec] = await t.db.select().from(attendanceRecords).where(eq(attendanceRecords.id, res.json().recordId));
    // 08:20 is after the 10-minute threshold: late; 08:20–12:00 = 220 minutes.
    expect(rec).toMatchObject({ studentId: s(2).id, sessionDate: '2026-03-16', status: 'late', minutesAttended: 220, source: 'manual' });
    expect(rec!.scanInTime!.toISOString()).toBe('2026-03-16T13:20:00.000Z');
    expect(await dayOf(2, '2026-03-16')).toMatchObject({ attendedMinutes: 220, pendingExceptionMinutes: 0 });
    const [correction] = (
      await t.db.execute<{ missed_punch_request_id: number }>(
        sql`select missed_punch_request_id from attendance_corrections where attendance_record_id = ${rec!.id}`,
      )
    ).rows;
    expect(correction!.missed_punch_request_id).toBe(id);
  });

  it('declines: the record stays, the student sees why and may ask again', async () => {
    const id = await idOf(1);
    const res = await api('POST', `/api/missed-punch-requests/${id}/decline`, cls.instructor.cookie, { reason: 'You left at 10:00; see me' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'declined', decisionReason: 'You left at 10:00; see me' });
    const [rec] = await t.db
      .select()
      .from(attendanceRecords)
      .where(eq(attendanceRecords.deviceId, PHONE.B))
      .orderBy(sql`session_date desc`)
      .limit(1);
    expect(rec!.scanOutTime).toBeNull();
    expect((await auditEntries(t.db, 'missed_punch_requests')).at(-1)).toMatchObject({
      record_id: String(id),
      new_values: { status: 'declined', decisionReason: 'You left at 10:00; see me' },
    });
    const again = await page('/attendance/scan/missed-punch', { device: PHONE.B });
    expect(again.body).toContain('An earlier request was declined: You left at 10:00; see me');
    expect(again.body).toContain('name="checkOut"');
  });
});

describe('exception rates', () => {
  it('lists students by exception rate for a period, by hand', async () => {
    // March: s2 1 exception of 1 meeting (16 Mar, approved) = 100.0; s1 1 of 2 (16 Mar declined) = 50.0;
    // s0 1 of 3 (2, 9, 16 Mar; 16 approved) = 33.3; s3 none, not listed.
    const res = await api('GET', '/api/missed-punch-requests/exception-rates?from=2026-03-01&to=2026-03-31', cls.instructor.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      items: [
        { studentId: s(2).id, name: 'First2 ALast2', sisStudentId: 'STU-A2002', meetingsAttended: 1, exceptions: 1, exceptionRate: 100 },
        { studentId: s(1).id, name: 'First1 ALast1', sisStudentId: 'STU-A2001', meetingsAttended: 2, exceptions: 1, exceptionRate: 50 },
        { studentId: s(0).id, name: 'First0 ALast0', sisStudentId: 'STU-A2000', meetingsAttended: 3, exceptions: 1, exceptionRate: 33.3 },
      ],
    });
    // A period without the exceptions: s0 alone from 1 to 10 March has 2 meetings and none.
    expect((await api('GET', '/api/missed-punch-requests/exception-rates?from=2026-03-01&to=2026-03-10', admin)).json().items).toEqual([]);
    expect((await api('GET', '/api/missed-punch-requests/exception-rates?from=2026-03-01&to=2026-03-31', otherInstructor)).json().items).toEqual([]);
    const tooLong = await api('GET', '/api/missed-punch-requests/exception-rates?from=2025-03-01&to=2026-03-31', admin);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual([expect.objectContaining({ field: 'to' })]);
    expect((await api('GET', '/api/missed-punch-requests/exception-rates?to=2026-03-31', admin)).json().errors).toEqual([
      expect.objectContaining({ field: 'from' }),
    ]);
  });

  it('gives each student’s exceptions on the student’s page, to those who may read the student', async () => {
    expect((await api('GET', `/api/students/${s(1).id}/exceptions`, cls.instructor.cookie)).json()).toEqual({
      exceptions: 1,
      meetingsAttended: 2,
      exceptionRate: 50,
      openRequests: 0,
    });
    expect((await api('GET', `/api/students/${s(3).id}/exceptions`, admin)).json()).toEqual({
      exceptions: 0,
      meetingsAttended: 2,
      exceptionRate: 0,
      openRequests: 0,
    });
    expect((await api('GET', `/api/students/${s(1).id}/exceptions`, otherInstructor)).statusCode).toBe(403);
    expect((await api('GET', '/api/students/999999/exceptions', admin)).statusCode).toBe(404);
  });
});
