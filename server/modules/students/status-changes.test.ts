import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programs } from '../../db/schema/index.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { csv, upload } from '../../test/import-support.ts';

/*
 * Decision 037: `withdrawn` and `loa` are set and lifted only by a withdrawal or a leave (with
 * their permissions), never by an edit or an import; suspension and graduation are set and lifted
 * by administrators; support staff move students between enrolled, active and inactive.
 */

const clock = fixedClock('2026-11-20T18:00:00Z');
let t: TestApp;
let admin: string;
let support: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  await t.db.insert(programs).values({ programName: 'Practical Nursing', sisProgramId: 'SIS-PN' });
});
afterAll(() => t?.close());

const send = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

let seq = 0;
async function newStudent(status?: string) {
  seq += 1;
  const res = await send('POST', '/api/students', admin, {
    firstName: 'Ana',
    lastName: `Status${seq}`,
    sisStudentId: `SIS-ST-${seq}`,
    enrollmentDate: '2026-09-01',
    ...(status ? { status } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; status: string; sisStudentId: string };
}
const statusOf = async (id: number) => (await send('GET', `/api/students/${id}`, admin)).json().status as string;
const edit = (id: number, cookie: string, status?: string) =>
  send('PUT', `/api/students/${id}`, cookie, { firstName: 'Ana', lastName: 'Edited', ...(status ? { status } : {}) });

describe('student status changes', () => {
  it('refuses withdrawn and loa by an edit, for support staff and administrators alike, naming the field', async () => {
    for (const cookie of [support, admin]) {
      for (const status of ['withdrawn', 'loa', 'on_leave']) {
        const s = await newStudent();
        const res = await edit(s.id, cookie, status);
        expect(res.statusCode, `${status}: ${res.body}`).toBe(400);
        expect(res.json().errors).toEqual([{ field: 'status', message: expect.stringMatching(/Hours tab/) }]);
        expect(await statusOf(s.id)).toBe('enrolled');
      }
    }
    const created = await send('POST', '/api/students', support, { firstName: 'New', lastName: 'OnLeave', status: 'loa' });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors[0].field).toBe('status');
  });

  it('keeps a recorded withdrawal: no edit reinstates the student, an edit without a status leaves it, reversal does', async () => {
    const s = await newStudent();
    const w = await send('POST', `/api/students/${s.id}/withdrawal`, admin, { withdrawalDate: '2026-11-02', reason: 'Moved away' });
    expect(w.statusCode, w.body).toBe(201);
    for (const cookie of [support, admin]) {
      const res = await edit(s.id, cookie, 'enrolled');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toEqual({ field: 'status', message: expect.stringMatching(/withdrawal is on record/) });
    }
    // Support staff may still correct the name of a withdrawn student.
    const nameOnly = await edit(s.id, support);
    expect(nameOnly.statusCode, nameOnly.body).toBe(200);
    expect(nameOnly.json()).toMatchObject({ lastName: 'Edited', status: 'withdrawn' });
    expect((await send('DELETE', `/api/students/${s.id}/withdrawal`, admin, { reason: 'Recorded by mistake' })).statusCode).toBe(204);
    expect(await statusOf(s.id)).toBe('enrolled');
  });

  it('lets support staff move between enrolled, active and inactive; suspension and graduation are for administrators', async () => {
    const s = await newStudent();
    for (const status of ['active', 'inactive', 'enrolled']) expect((await edit(s.id, support, status)).statusCode, status).toBe(200);
    for (const status of ['suspended', 'graduated']) {
      const res = await edit(s.id, support, status);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toEqual({ field: 'status', message: `Only an administrator may set a student's status to ${status}` });
    }
    expect((await edit(s.id, admin, 'graduated')).statusCode).toBe(200);
    const back = await edit(s.id, support, 'active');
    expect(back.statusCode).toBe(400);
    expect(back.json().errors[0].message).toBe('Only an administrator may change the status of a student who is graduated');
    expect(await statusOf(s.id)).toBe('graduated');
    expect((await edit(s.id, admin, 'active')).statusCode).toBe(200);
  });

  it('refuses an import that sets or lifts withdrawn or loa, with the row and column, and writes nothing', async () => {
    const withdrawn = await newStudent();
    await send('POST', `/api/students/${withdrawn.id}/withdrawal`, admin, { withdrawalDate: '2026-11-02', reason: 'Moved away' });
    const header = ['sisStudentId', 'firstName', 'lastName', 'programId', 'status'];
    const res = await upload(
      t,
      admin,
      'students',
      'students.csv',
      csv(header, [
        ['SIS-IMP-1', 'Nia', 'Fine', 'SIS-PN', 'enrolled'],
        [withdrawn.sisStudentId, 'Ana', 'Back', 'SIS-PN', ''],
        ['SIS-IMP-2', 'Omar', 'Leave', 'SIS-PN', 'loa'],
      ]),
    );
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json().errors as { row: number; column: string; message: string }[];
    expect(errors.map((e) => [e.row, e.column])).toEqual([
      [3, 'status'],
      [4, 'status'],
    ]);
    expect(errors[0]!.message).toMatch(/withdrawal is on record/);
    expect(errors[1]!.message).toMatch(/leave of absence is recorded under Leaves/);
    expect(await statusOf(withdrawn.id)).toBe('withdrawn');
    expect((await send('GET', '/api/students?search=SIS-IMP-1', admin)).json()).toEqual([]);
    // The same file without its status column changes names only.
    const ok = await upload(
      t,
      admin,
      'students',
      'students.csv',
      csv(['sisStudentId', 'firstName', 'lastName', 'programId'], [[withdrawn.sisStudentId, 'Ana', 'Renamed', 'SIS-PN']]),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await statusOf(withdrawn.id)).toBe('withdrawn');
  });
});
