import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { importType, templateRows } from '../../../common/import-columns.ts';

import { insertUser } from '../auth/service.ts';

import { auditEntries, createTestApp, fixedClock, multipart, type TestApp } from '../../test/helpers.ts';

import { csv, dataCounts, dataFingerprint, templateCsv, upload, uploadTemplates } from '../../test/import-support.ts';

let t: TestApp;
let admin: string;
let adminId: number;
const template = templateCsv;

beforeAll(async () => {
  // A fixed "today" inside the template schedules' terms, so roster rules are deterministic.
  t = await createTestApp({ clock: fixedClock('2027-01-04T15:00:00Z') });
  const who = await t.signedIn('super_admin', { firstName: 'Rita', lastName: 'Registrar' });
  admin = who.cookie;
  adminId = who.userId;
  await uploadTemplates(t, admin, ['programs', 'courses', 'instructors']);
});
afterAll(() => t.close());

const studentRow = (sis: string, first: string, program = 'SIS-PRG-MA', extra: Partial<Record<string, string>> = {}) => ({
  sis_student_id: sis,
  first_name: first,
  last_name: 'Alias',
  email: `${first.toLowerCase()}@students.example.edu`,
  phone: '5553012200',
  program_id: program,
  ...extra,
});

describe('file formats', () => {
  it('accepts the snake_case aliases of SPEC §3 and formats phone numbers', async () => {
    const rows = [studentRow('SIS-ALIAS-1', 'Ana'), studentRow('SIS-ALIAS-2', 'Ben')];
    const header = Object.keys(rows[0]!);
    const res = await upload(
      t,
      admin,
      'students',
      'aliases.csv',
      csv(
        header,
        rows.map((r) => Object.values(r)),
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 2, created: 2, updated: 0 });
    const {
      rows: [ana],
    } = await t.db.execute<{ phone: string; status: string; program: string }>(sql`
      select s.phone, s.status, p.sis_program_id as program from students s join programs p on p.id = s.program_id where s.sis_student_id = 'SIS-ALIAS-1'`);
    expect(ana).toEqual({ phone: '(555) 301-2200', status: 'enrolled', program: 'SIS-PRG-MA' });
  });

  it('accepts the documentation names of the schedule columns (cohortName, startDate, endDate, meetingDays)', async () => {
    const res = await upload(
      t,
      admin,
      'schedules',
      'doc-names.csv',
      csv(
        ['sisScheduleId', 'courseId', 'instructorId', 'startTime', 'endTime', 'meetingDays', 'startDate', 'endDate', 'cohortName', 'termNumber'],
        [['SIS-SCH-DOC-1', 'SIS-CRS-MA110', 'marcus.reyes@example.edu', '6:00 PM', '9:00 PM', 'Thursday', '2027-01-14', '2027-04-29', '5', '1']],
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.db.execute<{
      day_of_week: number;
      start_time: string;
      end_time: string;
      cohort_number: number;
      course_start_date: string;
      instructor_id: number;
    }>(sql`
      select day_of_week, start_time::text, end_time::text, cohort_number, course_start_date, instructor_id from schedules where sis_schedule_id = 'SIS-SCH-DOC-1'`);
    expect(rows[0]).toMatchObject({ day_of_week: 4, start_time: '18:00:00', end_time: '21:00:00', cohort_number: 5, course_start_date: '2027-01-14' });
  });

  it('reads UTF-8 with a BOM, CRLF line ends, quoted commas and line breaks, and skips empty rows', async () => {
    const body =
      '\uFEFFsisProgramId,programName,description,durationHours\r\n' +
      'SIS-BOM-1,"Surgical Technology, Evening","Line one\r\nline two, with a comma",200\r\n' +
      ',,,\r\n\r\n' +
      'SIS-BOM-2,Pharmacy Technician,"He said ""hi""",150\r\n';
    const res = await upload(t, admin, 'programs', 'bom.csv', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 2, created: 2 });
    const { rows } = await t.db.execute<{ program_name: string; description: string }>(sql`
      select program_name, description from programs where sis_program_id like 'SIS-BOM-%' order by sis_program_id`);
    expect(rows).toEqual([
      { program_name: 'Surgical Technology, Evening', description: 'Line one\r\nline two, with a comma' },
      { program_name: 'Pharmacy Technician', description: 'He said "hi"' },
    ]);
  });

  it('reports the row a spreadsheet shows, counting blank and multi-line rows', async () => {
    const res = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName,durationHours\nA1,"Two\nlines",100\n\nA2,Bad,20000\n');
    expect(res.json().errors).toEqual([{ row: 4, column: 'durationHours', value: '20000', message: 'durationHours must be between 1 and 10000' }]);
  });

  it('imports an .xlsx spreadsheet through the same rules', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['sisProgramId', 'programName', 'durationHours', 'startDate'],
      ['SIS-XL-1', 'Dental Assisting', 180, '2027-02-01'],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Programs');
    const res = await upload(t, admin, 'programs', 'programs.xlsx', XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, created: 1 });
  });
});

describe('all or nothing', () => {
  it('leaves the database unchanged when only the LAST row is bad', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => Object.values(studentRow(`SIS-LAST-${i}`, `Last${i}`)));
    rows[299]![5] = 'SIS-PRG-GONE';
    const before = await dataFingerprint(t.db);
    const res = await upload(t, admin, 'students', 'last-row-bad.csv', csv(Object.keys(studentRow('', '')), rows));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ row: 301, column: 'program_id', value: 'SIS-PRG-GONE', message: 'No program with SIS ID or id SIS-PRG-GONE' }]);
    expect(await dataFingerprint(t.db)).toBe(before);
  });

  it('refuses a foreign key to a missing program, by SIS id or by numeric id', async () => {
    const res = await upload(
      t,
      admin,
      'courses',
      'c.csv',
      csv(
        ['sisCourseId', 'programId', 'courseCode', 'courseName'],
        [
          ['SIS-FK-1', 'SIS-PRG-MISSING', 'FK-1', 'Orphan'],
          ['SIS-FK-2', '999999', 'FK-2', 'Orphan too'],
        ],
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`)).toEqual(['2:programId', '3:programId']);
  });

  it('a dry run reports what would be created and updated, and writes nothing', async () => {
    const before = await dataFingerprint(t.db);
    const wizardBefore = (await t.app.inject({ url: '/api/upload-wizard', headers: { cookie: admin } })).json();
    const uploadsBefore = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from file_uploads`)).rows[0]!.n;
    const res = await upload(t, admin, 'students', 'students.csv', template('students'), '?dryRun=true');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: true, created: 4, updated: 0, errors: [], rows: 4 });
    expect(await dataFingerprint(t.db)).toBe(before);
    const { rows } = await t.db.execute<{ status: string; dry_run: boolean; created_count: number; n: number }>(sql`
      select status, dry_run, created_count, (select count(*)::int from file_uploads) as n from file_uploads order by id desc limit 1`);
    expect(rows[0]).toEqual({ status: 'validated', dry_run: true, created_count: 4, n: uploadsBefore + 1 });
    expect((await t.app.inject({ url: '/api/upload-wizard', headers: { cookie: admin } })).json()).toEqual(wizardBefore);
    // A dry run of a bad file answers its problems like the real thing.
    const bad = await upload(t, admin, 'students', 'bad.csv', template('students').replace('SIS-PRG-PN', 'SIS-PRG-NOPE'), '?dryRun=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ dryRun: true, errors: [{ row: 2, column: 'programId' }] });
  });
});

describe('re-import', () => {
  it('updates records by SIS id instead of duplicating them', async () => {
    const first = await upload(t, admin, 'students', 'students.csv', template('students'));
    expect(first.json()).toMatchObject({ created: 4, updated: 0 });
    const counts = await dataCounts(t.db);
    const again = await upload(t, admin, 'students', 'students.csv', template('students').replace('Aaliyah', 'Aaliya'));
    expect(again.json()).toMatchObject({ created: 0, updated: 4 });
    expect(await dataCounts(t.db)).toEqual(counts);
    const { rows } = await t.db.execute<{ first_name: string }>(sql`select first_name from students where sis_student_id = 'SIS-STU-260001'`);
    expect(rows[0]!.first_name).toBe('Aaliya');
    for (const type of ['programs', 'courses', 'instructors'] as const) {
      const res = await upload(t, admin, type, `${type}.csv`, template(type));
      expect(res.json(), type).toMatchObject({ created: 0, updated: templateRows(importType(type)).rows.length });
    }
    expect(await dataCounts(t.db)).toEqual(counts);
  });

  it('leaves columns absent from the file alone, and clears present ones left blank', async () => {
    await upload(t, admin, 'programs', 'p.csv', csv(['sisProgramId', 'programName', 'accreditationBody'], [['SIS-PRG-PN', 'Practical Nursing (Evening)', '']]));
    const { rows } = await t.db.execute<{ program_name: string; program_code: string; duration_hours: string; accreditation_body: string | null }>(sql`
      select program_name, program_code, duration_hours::text, accreditation_body from programs where sis_program_id = 'SIS-PRG-PN'`);
    expect(rows[0]).toEqual({ program_name: 'Practical Nursing (Evening)', program_code: 'PN-DIP', duration_hours: '320.0', accreditation_body: null });
  });

  it('links an existing instructor account by e-mail, and never turns another role into an instructor', async () => {
    await insertUser(t.db, { email: 'Lee.Park@example.edu', password: null, role: 'instructor', firstName: 'Lee', lastName: 'Park' });
    const ok = await upload(
      t,
      admin,
      'instructors',
      'i.csv',
      csv(['sisUserId', 'email', 'firstName', 'lastName'], [['SIS-USR-2001', 'lee.park@example.edu', 'Lee', 'Park']]),
    );
    expect(ok.json()).toMatchObject({ created: 0, updated: 1 });
    const { rows } = await t.db.execute<{ n: number; sis: string }>(
      sql`select count(*)::int as n, max(sis_user_id) as sis from users where lower(email) = 'lee.park@example.edu'`,
    );
    expect(rows[0]).toEqual({ n: 1, sis: 'SIS-USR-2001' });
    const { email } = await t.signedIn('it_admin');
    const refused = await upload(
      t,
      admin,
      'instructors',
      'i.csv',
      csv(['sisUserId', 'email', 'firstName', 'lastName'], [['SIS-USR-2002', email, 'Not', 'Instructor']]),
    );
    expect(refused.json().errors[0]).toMatchObject({
      row: 2,
      column: 'email',
      message: `${email} is the login of a IT Administrator account; only instructors are imported`,
    });
  });
});

describe('rosters', () => {
  it("puts enrolled students on their program's running schedules, and moves them when their program changes", async () => {
    const res = await upload(t, admin, 'schedules', 'schedules.csv', template('schedules'));
    expect(res.statusCode, res.body).toBe(200);
    const roster = async (sis: string) =>
      (
        await t.db.execute<{ sis: string }>(sql`
        select sc.sis_schedule_id as sis from schedule_rosters r join schedules sc on sc.id = r.schedule_id join students st on st.id = r.student_id
         where st.sis_student_id = ${sis} order by 1`)
      ).rows.map((r) => r.sis);
    expect(await roster('SIS-STU-260001')).toEqual(['SIS-SCH-NUR101-C7', 'SIS-SCH-NUR102-C7']);
    const counts = await dataCounts(t.db);
    const again = await upload(t, admin, 'schedules', 'schedules.csv', template('schedules'));
    expect(again.json()).toMatchObject({ created: 0, updated: 4 });
    expect(await dataCounts(t.db)).toEqual(counts);
    const newcomer = await upload(
      t,
      admin,
      'students',
      's.csv',
      csv(
        ['sisStudentId', 'firstName', 'lastName', 'programId', 'status'],
        [
          ['SIS-NEW-1', 'Nia', 'Late', 'SIS-PRG-PHL', 'enrolled'],
          ['SIS-NEW-2', 'Omar', 'Leave', 'SIS-PRG-PHL', 'inactive'],
        ],
      ),
    );
    expect(newcomer.statusCode).toBe(200);
    expect(await roster('SIS-NEW-1')).toEqual(['SIS-SCH-PHL101-C2']);
    expect(await roster('SIS-NEW-2')).toEqual([]);
    await upload(t, admin, 'students', 's.csv', csv(['sisStudentId', 'firstName', 'lastName', 'programId'], [['SIS-NEW-1', 'Nia', 'Late', 'SIS-PRG-MA']]));
    expect(await roster('SIS-NEW-1')).toEqual(['SIS-SCH-DOC-1', 'SIS-SCH-MA110-C4']);
  });
});

describe('limits and the upload log', () => {
  it('refuses a file over 10 MB and a wrong type with the SPEC messages, and records both', async () => {
    const big = multipart('students.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    const tooBig = await t.app.inject({ method: 'POST', url: '/api/upload/students', headers: { cookie: admin, ...big.headers }, payload: big.payload });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('File Too Large: Please upload a file smaller than 10MB.');
    const pdf = await upload(t, admin, 'students', 'students.pdf', '%PDF-1.4');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe('Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).');
    const list = (await t.app.inject({ url: '/api/file-uploads?limit=2', headers: { cookie: admin } })).json();
    expect(list.map((u: { status: string; errorCount: number }) => [u.status, u.errorCount])).toEqual([
      ['failed', 1],
      ['failed', 1],
    ]);
    const detail = (await t.app.inject({ url: `/api/file-uploads/${list[1].id}`, headers: { cookie: admin } })).json();
    expect(detail.errors).toEqual([{ row: 0, column: 'file', message: 'File Too Large: Please upload a file smaller than 10MB.' }]);
  });

  it('accepts a file just under 10 MB', async () => {
    const header = 'sisStudentId,firstName,lastName,programId,address\n';
    const line = (i: number) => `SIS-BIG-${String(i).padStart(6, '0')},First${i},Last${i},SIS-PRG-PHL,${'x'.repeat(60)}\n`;
    const lines = [header];
    let size = header.length;
    for (let i = 0; size + 120 < 10 * 1024 * 1024; i++) {
      const l = line(i);
      lines.push(l);
      size += l.length;
    }
    const res = await upload(t, admin, 'students', 'big.csv', lines.join(''), '?dryRun=true');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().rows).toBe(lines.length - 1);
  });

  it('lists uploads newest first with type, file, size, counts, status and uploader', async () => {
    const res = await t.app.inject({ url: '/api/file-uploads', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    const ids = list.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const students = list.find((u: { fileName: string; status: string }) => u.fileName === 'students.csv' && u.status === 'completed');
    expect(students).toMatchObject({ type: 'students', rows: 4, errorCount: 0, dryRun: false, uploadedBy: adminId, uploadedByName: 'Rita Registrar' });
    expect(students.fileSize).toBeGreaterThan(500);
    expect(list.some((u: { status: string; dryRun: boolean }) => u.status === 'validated' && u.dryRun)).toBe(true);
    expect((await auditEntries(t.db, 'programs')).filter((a) => a.action === 'Upload').length).toBeGreaterThan(3);
  });
});

describe('who may call', () => {
  const routes: [string, string][] = [
    ['POST', '/api/upload/students'],
    ['POST', '/api/upload'],
    ['GET', '/api/file-uploads/1'],
    ['GET', '/api/file-uploads'],
    ['GET', '/api/upload-wizard'],
    ['PUT', '/api/upload-wizard'],
    ['POST', '/api/upload-wizard/reset'],
    ['GET', '/api/templates/students'],
    ['GET', '/api/import-columns'],
    ['GET', '/api/export/attendance'],
    ['GET', '/api/sis/status'],
  ];

  it('answers 401 without a session and 403 to instructors and support staff', async () => {
    const instructor = (await t.signedIn('instructor')).cookie;
    const support = (await t.signedIn('support_staff')).cookie;
    for (const [method, url] of routes) {
      const anon = await t.app.inject({ method: method as 'GET', url });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      for (const cookie of [instructor, support]) {
        expect((await t.app.inject({ method: method as 'GET', url, headers: { cookie } })).statusCode, `${method} ${url}`).toBe(403);
      }
    }
    const body = multipart('students.csv', template('students'));
    const res = await t.app.inject({ method: 'POST', url: '/api/upload/students', headers: { cookie: support, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(403);
  });

  it('refuses an unknown upload type', async () => {
    const res = await upload(t, admin, 'grades', 'g.csv', 'a,b\n1,2\n');
    expect(res.statusCode).toBe(400);
  });

  it('serves the generic uploader, which names the type in a form field or the query', async () => {
    const body = multipart('programs.csv', template('programs'), { type: 'programs' });
    const byField = await t.app.inject({ method: 'POST', url: '/api/upload?dryRun=true', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(byField.statusCode, byField.body).toBe(200);
    expect(byField.json()).toMatchObject({ type: 'programs', dryRun: true, updated: 3 });
    const byQuery = await upload(t, admin, '', 'programs.csv', template('programs'), '?type=programs&dryRun=true');
    expect(byQuery.json()).toMatchObject({ type: 'programs', updated: 3 });
    const missing = await upload(t, admin, '', 'programs.csv', template('programs'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('type');
  });
});
