import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// Scheduled breaks (decision 052): a schedule's `breaks` ([{start, end}] in school time,
// inside the class, none overlapping, at most 4) are kept and answered by the schedule API, refused
// field by field, and are not scheduled minutes: a check-in's record leaves them out.

// Monday 2 March 2026, Chicago (UTC−6): seedClass's class meets 08:00–12:00.
const clock = fixedClock('2026-03-02T13:55:00Z');
let t: TestApp;
let cls: TestClass;
let base: Record<string, unknown>;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 2, 'A');
  const read = (await t.app.inject({ url: `/api/schedules/${cls.scheduleId}`, headers: { cookie: cls.admin } })).json();
  base = {
    courseId: read.courseId,
    instructorId: read.instructorId,
    cohortNumber: read.cohortNumber,
    termNumber: read.termNumber,
    dayOfWeek: read.dayOfWeek,
    startTime: read.startTime,
    endTime: read.endTime,
    roomNumber: read.roomNumber,
    courseStartDate: read.courseStartDate,
    courseEndDate: read.courseEndDate,
  };
});
afterAll(() => t.close());

const put = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/schedules/${cls.scheduleId}`, headers: { cookie: cls.admin }, payload: { ...base, ...payload } });
const read = async () => (await t.app.inject({ url: `/api/schedules/${cls.scheduleId}`, headers: { cookie: cls.admin } })).json();
const fields = (res: { json: () => { errors?: { field: string }[] } }) => (res.json().errors ?? []).map((e) => e.field);

describe('scheduled breaks', () => {
  it('a schedule has none until given; they are kept in the order of the day and audited', async () => {
    expect((await read()).breaks).toEqual([]);
    const res = await put({
      breaks: [
        { start: '11:00', end: '11:30' },
        { start: '10:00', end: '10:15:00' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().breaks).toEqual([
      { start: '10:00', end: '10:15' },
      { start: '11:00', end: '11:30' },
    ]);
    expect((await read()).breaks).toEqual([
      { start: '10:00', end: '10:15' },
      { start: '11:00', end: '11:30' },
    ]);
    const list = (await t.app.inject({ url: '/api/schedules', headers: { cookie: cls.instructor.cookie } })).json();
    expect(list.find((s: { id: number }) => s.id === cls.scheduleId).breaks).toHaveLength(2);
    expect((await auditEntries(t.db, 'schedules')).at(-1)).toMatchObject({
      action: 'Update',
      old_values: { breaks: [] },
      new_values: { breaks: [{ start: '10:00' }, { start: '11:00' }] },
    });
  });

  it('refuses a break outside the class, ending before it starts, overlapping another, a bad time, a fifth: a 400 naming the field', async () => {
    expect(
      fields(
        await put({
          breaks: [
            { start: '09:00', end: '09:15' },
            { start: '11:50', end: '12:10' },
          ],
        }),
      ),
    ).toEqual(['breaks.1.end']);
    expect(fields(await put({ breaks: [{ start: '07:30', end: '08:10' }] }))).toEqual(['breaks.0.start']);
    expect(fields(await put({ breaks: [{ start: '09:15', end: '09:00' }] }))).toEqual(['breaks.0.end']);
    expect(
      fields(
        await put({
          breaks: [
            { start: '09:00', end: '09:30' },
            { start: '09:20', end: '09:40' },
          ],
        }),
      ),
    ).toEqual(['breaks.1.start']);
    expect(fields(await put({ breaks: [{ start: '9am', end: '09:30' }] }))).toEqual(['breaks.0.start']);
    expect(fields(await put({ breaks: [{ start: '09:00' }] }))).toEqual(['breaks.0.end']);
    const five = ['08:10', '08:30', '09:00', '09:30', '10:00'].map((start) => ({ start, end: start.replace(/0$/, '5') }));
    expect(fields(await put({ breaks: five }))).toEqual(['breaks']);
    expect(fields(await put({ breaks: 'lunch' }))).toEqual(['breaks']);
    const res = await put({
      breaks: [
        { start: '09:00', end: '09:15' },
        { start: '11:50', end: '12:10' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toBe('Break 2 must end by the end of class (12:00)');
    // Nothing changed.
    expect((await read()).breaks).toEqual([
      { start: '10:00', end: '10:15' },
      { start: '11:00', end: '11:30' },
    ]);
  });

  it('an update that sends no breaks keeps them, and refuses class times they no longer fit', async () => {
    const kept = await put({ roomNumber: 'C-1' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({
      roomNumber: 'C-1',
      breaks: [
        { start: '10:00', end: '10:15' },
        { start: '11:00', end: '11:30' },
      ],
    });
    const shorter = await put({ endTime: '11:15' });
    expect(shorter.statusCode).toBe(400);
    expect(fields(shorter)).toEqual(['breaks.1.end']);
    expect(shorter.json().message).toMatch(/breaks no longer fit/);
  });

  it('a new schedule takes breaks too; one sent with none has none', async () => {
    const { scheduleId: _s, ...rest } = { scheduleId: 0, ...base };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/schedules',
      headers: { cookie: cls.admin },
      payload: { ...rest, cohortNumber: 2, initialRoster: 'none', breaks: [{ start: '09:00', end: '09:10' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().breaks).toEqual([{ start: '09:00', end: '09:10' }]);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/schedules',
      headers: { cookie: cls.admin },
      payload: { ...rest, cohortNumber: 4, initialRoster: 'none' },
    });
    expect(plain.json().breaks).toEqual([]);
  });

  it('are not scheduled minutes: a check-in records 240 − 15 − 30 = 195, and no credit for a break', async () => {
    clock.set('2026-03-02T14:00:00Z'); // 08:00
    const { sessionId } = await cls.startSession();
    const checkIn = await cls.scan(sessionId, cls.students[0]!, { ip: '10.0.0.10' });
    expect(checkIn.res.statusCode, checkIn.res.body).toBe(200);
    // Counted to the end of class, as a check-in is: the 195 minutes outside the breaks.
    expect(checkIn.res.json()).toMatchObject({ action: 'checked_in', minutesAttended: 195 });
    const [record] = await t.db.select().from(attendanceRecords).where(eq(attendanceRecords.studentId, cls.students[0]!.id));
    expect(record).toMatchObject({ scheduledMinutes: 195, minutesAttended: 195 });
  });

  it('an empty list clears them', async () => {
    const res = await put({ breaks: [] });
    expect(res.json().breaks).toEqual([]);
  });
});
