import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';
import { closedDates } from './service.ts';

let t: TestApp;
let admin: string, support: string, instructor: string;
let nursing: number, barbering: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('super_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  instructor = (await t.signedIn('instructor')).cookie;
  nursing = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  barbering = (await buildProgram(t.db, { programName: 'Barbering' })).id;
});
afterAll(() => t.close());

const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/calendar/closures', headers: { cookie }, payload });
const list = async (cookie: string, query = '') => {
  const res = await t.app.inject({ url: `/api/calendar/closures${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; name: string; programId: number | null; programName: string | null }[];
};
const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const fields = (res: { json: () => { errors?: { field: string }[] } }) => (res.json().errors ?? []).map((e) => e.field);

describe('school calendar closures', () => {
  const ids: Record<string, number> = {};

  it('creates closures (201, audited), school-wide or for one program', async () => {
    const res = await post(admin, { startDate: '2026-11-26', endDate: '2026-11-27', name: '  Thanksgiving  ', programId: null });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      startDate: '2026-11-26',
      endDate: '2026-11-27',
      name: 'Thanksgiving',
      programId: null,
      programName: null,
      createdAt: expect.any(String),
    });
    ids.thanksgiving = res.json().id;
    expect((await auditEntries(t.db, 'calendar_closures')).at(-1)).toMatchObject({
      action: 'Create',
      record_id: String(ids.thanksgiving),
      new_values: { startDate: '2026-11-26', endDate: '2026-11-27', name: 'Thanksgiving', programId: null },
    });

    const clinical = await post(admin, { startDate: '2026-12-01', endDate: '2026-12-03', name: 'Clinical site closed', programId: nursing });
    expect(clinical.statusCode).toBe(201);
    expect(clinical.json()).toMatchObject({ programId: nursing, programName: 'Practical Nursing' });
    ids.clinical = clinical.json().id;
    // programId may be left out (the whole school).
    ids.winter = (await post(admin, { startDate: '2026-12-21', endDate: '2027-01-01', name: 'Winter break' })).json().id;
    ids.barber = (await post(admin, { startDate: '2026-12-02', endDate: '2026-12-02', name: 'State board exams', programId: barbering })).json().id;
  });

  it('lists by date range and program, for every signed-in role', async () => {
    expect(names(await list(instructor))).toEqual(['Thanksgiving', 'Clinical site closed', 'State board exams', 'Winter break']);
    // A closure overlapping either end of the range is in it.
    expect(names(await list(support, '?from=2026-11-27&to=2026-12-21'))).toEqual(['Thanksgiving', 'Clinical site closed', 'State board exams', 'Winter break']);
    expect(names(await list(support, '?from=2026-11-28&to=2026-12-20'))).toEqual(['Clinical site closed', 'State board exams']);
    expect(names(await list(admin, '?from=2027-01-02'))).toEqual([]);
    expect(names(await list(admin, '?to=2026-11-26'))).toEqual(['Thanksgiving']);
    // A program sees the school's closures and its own.
    expect(names(await list(admin, `?programId=${nursing}`))).toEqual(['Thanksgiving', 'Clinical site closed', 'Winter break']);
    expect(names(await list(admin, `?programId=${barbering}&from=2026-12-01&to=2026-12-31`))).toEqual(['State board exams', 'Winter break']);
    expect((await t.app.inject({ url: '/api/calendar/closures' })).statusCode).toBe(401);
  });

  it('refuses a bad query with a 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['?from=2026-02-30', 'from'],
      ['?from=2026-12-10&to=2026-12-01', 'to'],
      ['?programId=abc', 'programId'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/calendar/closures${query}`, headers: { cookie: admin } });
      expect(res.statusCode, query).toBe(400);
      expect(fields(res), query).toContain(field);
    }
  });

  it('gives the closed days of a program: the school’s and its own, within the range', async () => {
    const nursingDays = await closedDates(t.db, { from: '2026-11-27', to: '2026-12-22', programId: nursing });
    expect([...nursingDays].sort()).toEqual(['2026-11-27', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-21', '2026-12-22']);
    const schoolDays = await closedDates(t.db, { from: '2026-11-01', to: '2026-12-31', programId: null });
    expect(schoolDays.size).toBe(2 + 11);
    expect(schoolDays.has('2026-12-02')).toBe(false);
    expect([...(await closedDates(t.db, { from: '2026-12-02', to: '2026-12-02', programId: barbering }))]).toEqual(['2026-12-02']);
    expect((await closedDates(t.db, { from: '2027-01-02', to: '2027-03-01', programId: nursing })).size).toBe(0);
  });

  it('refuses bad closures with a 400 naming the field, and writes nothing', async () => {
    const before = (await list(admin)).length;
    const cases: [object, string][] = [
      [{ startDate: '2026-12-05', endDate: '2026-12-04', name: 'Backwards' }, 'endDate'],
      [{ startDate: '2026-02-30', endDate: '2026-03-01', name: 'No such day' }, 'startDate'],
      [{ startDate: '2026-01-01', endDate: '2027-06-01', name: 'Too long' }, 'endDate'],
      [{ startDate: '2026-12-05', endDate: '2026-12-05', name: '   ' }, 'name'],
      [{ startDate: '2026-12-05', endDate: '2026-12-05', name: 'Ghost program', programId: 999_999 }, 'programId'],
      [{ startDate: '2026-12-05', endDate: '2026-12-05', name: 'Bad id', programId: -1 }, 'programId'],
      [{ startDate: '2026-12-05', endDate: '2026-12-05', name: 'Extra', reason: 'x' }, 'reason'],
      [{ endDate: '2026-12-05', name: 'No start' }, 'startDate'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fields(res), JSON.stringify(payload)).toContain(field);
    }
    expect((await list(admin)).length).toBe(before);
  });

  it('lets only administrators create and delete', async () => {
    for (const cookie of [instructor, support]) {
      expect((await post(cookie, { startDate: '2026-12-05', endDate: '2026-12-05', name: 'Nope' })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/calendar/closures/${ids.thanksgiving}`, headers: { cookie } })).statusCode).toBe(403);
    }
    expect(names(await list(admin))).toContain('Thanksgiving');
  });

  it('deletes a closure (204, audited with its values), 404 when there is none', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/calendar/closures/${ids.clinical}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(204);
    expect((await auditEntries(t.db, 'calendar_closures')).at(-1)).toMatchObject({
      action: 'Delete',
      record_id: String(ids.clinical),
      old_values: { startDate: '2026-12-01', endDate: '2026-12-03', name: 'Clinical site closed', programId: nursing, programName: 'Practical Nursing' },
    });
    expect(names(await list(admin, `?programId=${nursing}`))).toEqual(['Thanksgiving', 'Winter break']);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/calendar/closures/${ids.clinical}`, headers: { cookie: admin } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/calendar/closures/abc', headers: { cookie: admin } })).statusCode).toBe(400);
  });
});
