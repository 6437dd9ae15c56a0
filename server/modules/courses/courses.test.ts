import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_SELF_PREREQUISITE } from '../../../common/courses.ts';
import { buildCourse } from '../../test/factories.ts';
import { auditEntries, createTestApp, multipart, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let admin: string, support: string;
let programId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/programs',
    headers: { cookie: admin },
    payload: { programName: 'Practical Nursing', sisProgramId: 'PN', durationHours: 320, credentialType: 'Diploma' },
  });
  programId = res.json().id;
});
afterAll(() => t.close());

const course = (code: string, extra: object = {}) => ({ courseCode: code, courseName: `Course ${code}`, clockHours: 60, programId, ...extra });
const create = (payload: object) => t.app.inject({ method: 'POST', url: '/api/courses', headers: { cookie: admin }, payload });
const count = async () => (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from courses`)).rows[0]!.n;

describe('programs', () => {
  it('lists, validates hours (1–10,000, decision 040) and credential types, and audits', async () => {
    expect((await t.app.inject({ url: '/api/programs', headers: { cookie: support } })).json()[0]).toMatchObject({
      programName: 'Practical Nursing',
      durationHours: 320,
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/programs',
      headers: { cookie: admin },
      payload: { programName: 'X', durationHours: 10_001, credentialType: 'PhD' },
    });
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['credentialType', 'durationHours']);
    const upd = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}`,
      headers: { cookie: admin },
      payload: { programName: 'Practical Nursing', sisProgramId: 'PN', durationHours: 300 },
    });
    expect(upd.json().durationHours).toBe(300);
    expect((await auditEntries(t.db, 'programs')).map((a) => a.action)).toEqual(['Create', 'Update']);
    expect((await t.app.inject({ method: 'POST', url: '/api/programs', headers: { cookie: support }, payload: { programName: 'Y' } })).statusCode).toBe(403);
  });
});

describe('courses', () => {
  it('creates with prerequisites and enforces clock hours 1–2,000 in steps of 0.5', async () => {
    const a = (await create(course('NUR-101'))).json();
    const b = await create(course('NUR-102', { prerequisiteIds: [a.id], clockHours: 75.5 }));
    expect(b.statusCode).toBe(201);
    expect(b.json()).toMatchObject({ prerequisiteIds: [a.id], clockHours: 75.5, programName: 'Practical Nursing', isActive: true });
    for (const hours of [0.5, 2000.5, 60.25]) expect((await create(course(`X-${hours}`, { clockHours: hours }))).json().errors[0].field).toBe('clockHours');
    expect(
      (await create({ courseCode: '', courseName: '' }))
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['courseCode', 'courseName']);
    const dup = await create(course('nur-101'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors[0].field).toBe('courseCode');
    expect((await create(course('NUR-999', { prerequisiteIds: [424242] }))).statusCode).toBe(400);
    // Decimal fields may come as numeric strings (SPEC: "clockHours decimal or null").
    const asText = await create(course('NUR-150', { clockHours: '62.5', programId: String(programId) }));
    expect(asText.statusCode).toBe(201);
    expect(asText.json()).toMatchObject({ clockHours: 62.5, programId });
    expect((await create(course('NUR-151', { clockHours: 'sixty' }))).json().errors[0].field).toBe('clockHours');
  });

  it('refuses a course as its own prerequisite and any cycle, with the reason', async () => {
    const list = (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json();
    const a = list.find((c: { courseCode: string }) => c.courseCode === 'NUR-101');
    const b = list.find((c: { courseCode: string }) => c.courseCode === 'NUR-102');
    const self = await t.app.inject({
      method: 'PUT',
      url: `/api/courses/${a.id}`,
      headers: { cookie: admin },
      payload: course('NUR-101', { prerequisiteIds: [a.id] }),
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(COURSE_SELF_PREREQUISITE);
    const c = (await create(course('NUR-103', { prerequisiteIds: [b.id] }))).json();
    const cycle = await t.app.inject({
      method: 'PUT',
      url: `/api/courses/${a.id}`,
      headers: { cookie: admin },
      payload: course('NUR-101', { prerequisiteIds: [c.id] }),
    });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toMatch(/cycle/);
    expect((await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json().find((x: { id: number }) => x.id === a.id).prerequisiteIds).toEqual(
      [],
    );
  });

  it('toggles active status and audits it', async () => {
    const id = (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json()[0].id;
    const off = await t.app.inject({ method: 'PATCH', url: `/api/courses/${id}/toggle-status`, headers: { cookie: admin } });
    expect(off.json().isActive).toBe(false);
    const on = await t.app.inject({ method: 'PATCH', url: `/api/courses/${id}/toggle-status`, headers: { cookie: admin } });
    expect(on.json().isActive).toBe(true);
    expect((await auditEntries(t.db, 'courses')).filter((a) => a.new_values && 'isActive' in a.new_values)).toHaveLength(2);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/courses/999999/toggle-status', headers: { cookie: admin } })).statusCode).toBe(404);
  });

  it('exports a CSV that the bulk import reads back', async () => {
    const res = await t.app.inject({ url: '/api/courses/export', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="courses-export-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('courseCode,courseName,description,clockHours,programId,sisCourseId,prerequisiteIds,isActive');
    expect(lines).toHaveLength(5);
    const before = await count();
    const back = multipart('back.csv', res.body);
    const again = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...back.headers }, payload: back.payload });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ imported: 4, errors: [] });
    expect(await count()).toBe(before);
  });

  it('bulk-imports a CSV with BOM, CRLF, quoted commas and snake_case headers, and updates on re-import', async () => {
    const csv =
      '\uFEFFcourse_code,course_name,description,clock_hours,program_id,sis_course_id,prerequisite_ids\r\n' +
      'MA-101,Medical Terminology,"Roots, prefixes, suffixes",45,PN,SIS-MA-101,[]\r\n\r\n' +
      `MA-102,Clinical Procedures,"Line one\nline two",90,${programId},SIS-MA-102,[]\r\n`;
    const body = multipart('courses.csv', csv);
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(res.json()).toMatchObject({ imported: 2, errors: [] });
    const ma = (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json().find((c: { courseCode: string }) => c.courseCode === 'MA-101');
    expect(ma).toMatchObject({ description: 'Roots, prefixes, suffixes', clockHours: 45, programId, sisCourseId: 'SIS-MA-101' });
    const before = await count();
    const edited = multipart('courses.csv', csv.replace('Medical Terminology', 'Medical Terminology II'));
    await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...edited.headers }, payload: edited.payload });
    expect(await count()).toBe(before);
    expect(
      (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json().find((c: { courseCode: string }) => c.courseCode === 'MA-101')
        .courseName,
    ).toBe('Medical Terminology II');
    expect((await auditEntries(t.db, 'courses')).at(-1)).toMatchObject({ action: 'Upload', new_values: { updated: 2, created: 0 } });
  });

  it('keeps the hours a course has: a 45-hour course from either importer edits and saves; a new value meets the one rule (decisions 012 and 040)', async () => {
    const viaScreen = multipart('list.csv', `courseCode,courseName,clockHours,programId\nHRS-45,Phlebotomy Basics,45,${programId}\n`);
    expect(
      (
        await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...viaScreen.headers }, payload: viaScreen.payload })
      ).json(),
    ).toMatchObject({ imported: 1 });
    const viaWizard = multipart('courses.csv', `sisCourseId,programId,courseCode,courseName,clockHours\nSIS-HRS-37,PN,HRS-37,Lab Safety,37.5\n`);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/upload/courses', headers: { cookie: admin, ...viaWizard.headers }, payload: viaWizard.payload }))
        .statusCode,
    ).toBe(200);
    // A value stored before the steps rule (an import could once give tenths).
    await buildCourse(t.db, { courseCode: 'HRS-7', courseName: 'Hand Hygiene', programId, clockHours: '7.3' });
    const all = (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json() as { id: number; courseCode: string; clockHours: number }[];
    for (const [code, hours] of [
      ['HRS-45', 45],
      ['HRS-37', 37.5],
      ['HRS-7', 7.3],
    ] as const) {
      const c = all.find((x) => x.courseCode === code)!;
      expect(c.clockHours).toBe(hours);
      const put = (clockHours: unknown) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/courses/${c.id}`,
          headers: { cookie: admin },
          payload: course(code, { courseName: `${code} edited`, description: 'Now with a description', clockHours }),
        });
      // Unchanged hours: the edit saves.
      const kept = await put(hours);
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ clockHours: hours, description: 'Now with a description' });
      // A new value is typed: the rule applies, named on the field.
      for (const typed of [0.5, 2000.5, 60.25, 7.2]) {
        const refused = await put(typed);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().errors[0].field).toBe('clockHours');
      }
      expect((await put(46)).json().clockHours).toBe(46);
    }
    // A new course through the form or the API may be short too (before: 50–150 only).
    expect((await create(course('HRS-NEW', { clockHours: 45 }))).json()).toMatchObject({ clockHours: 45, warnings: [] });
    expect((await create(course('HRS-ZERO', { clockHours: 0 }))).json().errors[0]).toMatchObject({
      field: 'clockHours',
      message: 'Clock hours must be between 1 and 2,000',
    });
  });

  it('imports nothing when one row is bad, and reports row and column', async () => {
    const before = await count();
    const csv =
      'courseCode,courseName,clockHours,programId,prerequisiteIds\nOK-1,Fine,60,,[]\nOK-2,Also fine,60,,\nBAD-1,,2500,NOPE,[1,\nOK-1,Duplicate,60,,[]\n';
    const body = multipart('bad.csv', csv);
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().imported).toBe(0);
    expect(res.json().errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`)).toEqual([
      '4:courseName',
      '4:clockHours',
      '4:programId',
      '4:prerequisiteIds',
      '5:courseCode',
    ]);
    expect(await count()).toBe(before);
  });

  it('refuses a prerequisite cycle through bulk upload as through PUT, naming the row and column, and stores nothing', async () => {
    const a = (await create(course('CYC-A'))).json();
    const b = (await create(course('CYC-B', { prerequisiteIds: [a.id] }))).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/courses/${a.id}`,
      headers: { cookie: admin },
      payload: course('CYC-A', { prerequisiteIds: [b.id] }),
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().message).toMatch(/cycle/);
    const before = await count();
    const body = multipart('cycle.csv', `courseCode,courseName,clockHours,prerequisiteIds\nCYC-A,Course CYC-A,60,[${b.id}]\nCYC-NEW,Fresh course,60,[]\n`);
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'IMPORT_INVALID', imported: 0 });
    expect(res.json().errors).toEqual([expect.objectContaining({ row: 2, column: 'prerequisiteIds', message: expect.stringMatching(/cycle/) })]);
    expect(await count()).toBe(before);
    // Without the cycle the same row goes through, an unknown column ignored as the screen always did.
    const fine = multipart(
      'fine.csv',
      `courseCode,courseName,clockHours,prerequisiteIds,notes\nCYC-A,Course CYC-A,60,[],ignored\nCYC-NEW,Fresh course,60,[${a.id}],\n`,
    );
    const ok = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...fine.headers }, payload: fine.payload });
    expect(ok.json()).toMatchObject({ imported: 2, errors: [] });
    expect(await count()).toBe(before + 1);
    const list = (await t.app.inject({ url: '/api/courses', headers: { cookie: admin } })).json();
    expect(list.find((x: { id: number }) => x.id === a.id).prerequisiteIds).toEqual([]);
  });

  it('bulk-imports an .xlsx spreadsheet', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['courseCode', 'courseName', 'clockHours', 'programId', 'sisCourseId', 'prerequisiteIds'],
      ['XL-1', 'Anatomy', 80, 'PN', 'SIS-XL-1', '[]'],
      ['XL-2', 'Physiology', 80, 'PN', 'SIS-XL-2', '[]'],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Courses');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const body = multipart('courses.xlsx', buf);
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(res.json()).toMatchObject({ imported: 2, errors: [] });
  });

  it('refuses other file types and files over the limit with the SPEC messages', async () => {
    const pdf = multipart('courses.pdf', 'hello');
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...pdf.headers }, payload: pdf.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).');
    const big = multipart('big.csv', Buffer.alloc(10 * 1024 * 1024 + 10, 'a'));
    const tooBig = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...big.headers }, payload: big.payload });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('File Too Large: Please upload a file smaller than 10MB.');
  });

  it('lets support staff read courses but not change them', async () => {
    expect((await t.app.inject({ url: '/api/courses', headers: { cookie: support } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/courses', headers: { cookie: support }, payload: course('S-1') })).statusCode).toBe(403);
    const body = multipart('c.csv', 'courseCode,courseName\nA,B\n');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: support, ...body.headers }, payload: body.payload }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/courses/1/toggle-status', headers: { cookie: support } })).statusCode).toBe(403);
  });
});
