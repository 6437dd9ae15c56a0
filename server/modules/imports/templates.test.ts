import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TYPES } from '../../../common/constants.ts';
import { IMPORT_TYPES, describeImportColumns, importType, templateRows } from '../../../common/import-columns.ts';
import { ruleText } from '../../../common/import-column-rules.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';
import { dataCounts, upload } from '../../test/import-support.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('super_admin')).cookie;
});
afterAll(() => t.close());

/** SPEC §3 record layouts, written out here rather than read from the code under test. */
const SPEC_COLUMNS: Record<string, string[]> = {
  programs:
    'sisProgramId, programName, programCode, durationHours, credentialType, description, status, startDate, endDate, accreditationBody, programDirector, tuitionCost, capacity, campusLocation, externalProgramId, regulatoryCode, lastSyncDate, syncStatus'.split(
      ', ',
    ),
  courses:
    'sisCourseId, programId, courseCode, courseName, clockHours, description, prerequisiteIds, isActive, syllabusUrl, textbooks, labHours, lectureHours, passingGrade, category, credits, externalCourseId, departmentCode, transferCredits, lastSyncDate'.split(
      ', ',
    ),
  instructors:
    'sisUserId, email, firstName, lastName, username, role, phone, department, qualifications, hireDate, salary, officeLocation, bio, specializations, certifications, employmentType, externalInstructorId, employeeId, licenseNumber, lastSyncDate'.split(
      ', ',
    ),
  students:
    'sisStudentId, firstName, lastName, email, phone, programId, enrollmentDate, status, dateOfBirth, address, emergencyContact, socialSecurityNumber, financialAid, veteranStatus, graduationDate, externalStudentId, nationalStudentId, transcriptId, lastSyncDate'.split(
      ', ',
    ),
  schedules:
    'sisScheduleId, courseId, instructorId, roomNumber, startTime, endTime, dayOfWeek, courseStartDate, courseEndDate, cohortNumber, termNumber, isActive, room, capacity, notes, holidayExceptions, makeupDates, gradingPolicy, term, externalScheduleId, academicYear, registrationCode, lastSyncDate'.split(
      ', ',
    ),
};

/** Columns added to SPEC's layouts (adding is allowed; renaming is not), after the SPEC column they follow. */
const ADDED: Record<string, [after: string, column: string][]> = { schedules: [['cohortNumber', 'cohortName']] };
const templateColumns = (type: string) => {
  const columns = [...SPEC_COLUMNS[type]!];
  for (const [after, column] of ADDED[type] ?? []) columns.splice(columns.indexOf(after) + 1, 0, column);
  return columns;
};

describe('column definitions', () => {
  it('define exactly the SPEC §3 columns per type (plus the added ones), with 3–4 sample rows and a rule text each', () => {
    expect(IMPORT_TYPES.map((d) => d.type)).toEqual([...UPLOAD_TYPES].sort((a, b) => importType(a).step - importType(b).step));
    for (const def of IMPORT_TYPES) {
      expect(
        def.columns.map((c) => c.name),
        def.type,
      ).toEqual(templateColumns(def.type));
      const counts = new Set(def.columns.map((c) => c.samples.length));
      expect(counts.size, `${def.type} sample counts`).toBe(1);
      expect([3, 4]).toContain([...counts][0]);
      for (const c of def.columns) expect(ruleText(c.rule).length).toBeGreaterThan(3);
      expect(def.columns.find((c) => c.name === def.key)?.required).toBe(true);
    }
  });

  it('accept the documentation names of the schedule columns as aliases', () => {
    const schedules = importType('schedules');
    const aliasOf = (name: string) => schedules.columns.find((c) => c.name === name)!.aliases;
    // cohortName is a column of its own now (decision 047): a name, or the cohort number as before.
    expect(schedules.columns.find((c) => c.name === 'cohortNumber')?.alternative).toBe('cohortName');
    expect(aliasOf('courseStartDate')).toContain('startDate');
    expect(aliasOf('courseEndDate')).toContain('endDate');
    expect(aliasOf('dayOfWeek')).toContain('meetingDays');
  });
});

describe('templates', () => {
  it('download with exactly the SPEC columns and the documented file names', async () => {
    for (const type of UPLOAD_TYPES) {
      const res = await t.app.inject({ url: `/api/templates/${type}`, headers: { cookie: admin } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${type}_template.csv"`);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(templateColumns(type).join(','));
      expect(lines.length - 1).toBe(templateRows(importType(type)).rows.length);
    }
    expect((await t.app.inject({ url: '/api/templates/grades', headers: { cookie: admin } })).statusCode).toBe(400);
  });

  it('import cleanly in sequence: programs → courses → instructors → students → schedules', async () => {
    for (const type of ['programs', 'courses', 'instructors', 'students', 'schedules'] as const) {
      const template = await t.app.inject({ url: `/api/templates/${type}`, headers: { cookie: admin } });
      const res = await upload(t, admin, type, `${type}_template.csv`, template.rawPayload);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      const rows = templateRows(importType(type)).rows.length;
      expect(res.json()).toMatchObject({ type, fileName: `${type}_template.csv`, rows, created: rows, updated: 0, errors: [] });
      expect(res.json().uploadId).toBeGreaterThan(0);
    }
    expect(await dataCounts(t.db)).toMatchObject({ programs: 3, courses: 4, prerequisites: 1, users: 4, profiles: 3, students: 4, schedules: 4 });
    // Each schedule's roster holds its program's enrolled students: 2 PN × 2 PN schedules + 1 MA + 1 PHL.
    expect((await dataCounts(t.db)).rosters).toBe(6);

    const {
      rows: [nur102],
    } = await t.db.execute<{ prereq: string }>(sql`
      select p.course_code as prereq from courses c join course_prerequisites x on x.course_id = c.id join courses p on p.id = x.prerequisite_id where c.course_code = 'NUR-102'`);
    expect(nur102?.prereq).toBe('NUR-101');
    const {
      rows: [dana],
    } = await t.db.execute<{ role: string; password_hash: string | null; sis_user_id: string; department: string; employment_type: string }>(sql`
      select u.role, u.password_hash, u.sis_user_id, p.department, p.employment_type from users u join instructor_profiles p on p.user_id = u.id where u.email = 'dana.whitfield@example.edu'`);
    expect(dana).toEqual({ role: 'instructor', password_hash: null, sis_user_id: 'SIS-USR-1001', department: 'Nursing', employment_type: 'Full-time' });
    const {
      rows: [sched],
    } = await t.db.execute<{ holiday_exceptions: string; day_of_week: number; start_time: string; instructor: string }>(sql`
      select s.holiday_exceptions::text, s.day_of_week, s.start_time::text, u.email as instructor from schedules s join users u on u.id = s.instructor_id where s.sis_schedule_id = 'SIS-SCH-NUR101-C7'`);
    expect(sched).toEqual({ holiday_exceptions: '{2027-01-18,2027-03-15}', day_of_week: 1, start_time: '08:00:00', instructor: 'dana.whitfield@example.edu' });

    // SSNs: encrypted at rest, only the last four in clear, never in an answer or the audit log.
    const { rows: ssn } = await t.db.execute<{ ssn_encrypted: string | null; ssn_last4: string | null }>(
      sql`select ssn_encrypted, ssn_last4 from students where sis_student_id = 'SIS-STU-260001'`,
    );
    expect(ssn[0]!.ssn_last4).toBe('0001');
    expect(ssn[0]!.ssn_encrypted).toMatch(/^v1\./);
    expect(ssn[0]!.ssn_encrypted).not.toContain('900120001');
    const students = await t.app.inject({ url: '/api/students', headers: { cookie: admin } });
    expect(students.body).not.toContain('900-12-0001');
    expect(JSON.stringify(await auditEntries(t.db, 'students'))).not.toContain('900-12');
    const audit = await auditEntries(t.db, 'students');
    expect(audit.at(-1)).toMatchObject({ action: 'Upload', new_values: { uploadType: 'students', rows: 4, created: 4, updated: 0 } });
  });

  it('describe the columns for the Templates tab from the same definitions', async () => {
    const res = await t.app.inject({ url: '/api/import-columns', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(describeImportColumns())));
    const students = res.json().types.find((x: { type: string }) => x.type === 'students');
    expect(students.columns.filter((c: { required: boolean }) => c.required).map((c: { name: string }) => c.name)).toEqual([
      'sisStudentId',
      'firstName',
      'lastName',
      'programId',
    ]);
    expect(students.columns.find((c: { name: string }) => c.name === 'firstName').aliases).toContain('first_name');
  });
});
