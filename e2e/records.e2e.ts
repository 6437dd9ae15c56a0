import fs from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';
import type { APIRequestContext, Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course } from '../common/courses.ts';
import type { Program } from '../common/programs.ts';
import type { Schedule } from '../common/schedules.ts';
import type { Student } from '../common/students.ts';
import type { User } from '../common/users.ts';
import { STUDENT_HAS_ATTENDANCE } from '../common/students.ts';
import {
  apiSend,
  closeAll,
  describedBy,
  hidden,
  openSignedIn,
  openSignedInAt,
  usingPage,
  screenshot,
  seriousViolations,
  signIn,
  signInOnce,
  startAdminJourney,
  toasts,
  visible,
  type E2eServer,
  type SignedInState,
  type TestUser,
} from './support.ts';

/**
 * Records administration journeys (SPEC §2): courses with prerequisites, export and bulk import;
 * schedules and rosters; students; users with set-password links; what support staff may do.
 * Each screen and each of its dialogs is checked with axe.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let support: TestUser;
let api: APIRequestContext;
/** The it_admin's signed-in cookies, reused so the journeys do not each sign in (sign-in is rate-limited). */
let adminState: SignedInState;

const seed = {} as {
  program: Program;
  foundations: Course;
  seedCourse: Course;
  seedSchedule: Schedule;
  ada: Student;
  grace: Student;
  withdrawn: Student;
  alan: Student;
  superAdmin: TestUser;
};

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  support = await server.createUser('support_staff', { firstName: 'Sam', lastName: 'Support' });
  seed.superAdmin = await server.createUser('super_admin', { firstName: 'Skye', lastName: 'Owner' });
  await server.createUser('instructor', { firstName: 'Irene', lastName: 'Iverson' });

  seed.program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Practical Nursing', programCode: 'PN' });
  const other = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Medical Assisting', programCode: 'MA' });
  seed.foundations = await apiSend<Course>(api, 'POST', '/api/courses', {
    courseCode: 'NUR100',
    courseName: 'Foundations of Nursing',
    clockHours: 80,
    programId: seed.program.id,
  });
  seed.seedCourse = await apiSend<Course>(api, 'POST', '/api/courses', { courseCode: 'MA200', courseName: 'Clinical Procedures', programId: other.id });
  const student = (firstName: string, lastName: string, extra: Record<string, unknown> = {}) =>
    apiSend<Student>(api, 'POST', '/api/students', {
      firstName,
      lastName,
      email: `${firstName}.${lastName}@students.example`.toLowerCase(),
      programId: seed.program.id,
      ...extra,
    });
  seed.ada = await student('Ada', 'Lovelace', { sisStudentId: 'SIS-001', socialSecurityNumber: '123-45-6789', phone: '555-0101' });
  seed.grace = await student('Grace', 'Hopper', { sisStudentId: 'SIS-002' });
  await student('Mary', 'Seacole', { sisStudentId: 'SIS-003' });
  // A withdrawal is recorded, never typed into the status (decision 037).
  seed.withdrawn = await student('Wendy', 'Withdrawn', { sisStudentId: 'SIS-004' });
  await apiSend(api, 'POST', `/api/students/${seed.withdrawn.id}/withdrawal`, { withdrawalDate: '2025-01-10', reason: 'Moved away' });
  seed.alan = await student('Alan', 'Turing', { sisStudentId: 'SIS-005', programId: other.id });
  // Enough students for a second page of the students table.
  for (let i = 1; i <= 24; i += 1) await student('Pat', `Filler${String(i).padStart(2, '0')}`, { programId: other.id });

  // A schedule with attendance history for Alan, so deleting him must be refused (409).
  seed.seedSchedule = await apiSend<Schedule>(api, 'POST', '/api/schedules', {
    courseId: seed.seedCourse.id,
    cohortNumber: 1,
    termNumber: 1,
    dayOfWeek: 2,
    startTime: '13:00',
    endTime: '16:00',
    roomNumber: '101',
    courseStartDate: '2025-01-07',
    courseEndDate: '2025-03-25',
  });
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source)
    values (${seed.alan.id}, ${seed.seedSchedule.id}, '2025-01-07', 'present', 'manual')`);
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

/** A signed-out page of its own (1280×900). */
const signedOutPage = () => openSignedIn(browser, server.baseUrl, undefined);

/** A signed-in it_admin page, already on `path`. */
const adminPage = (path: string, heading: string) => openSignedInAt(browser, server.baseUrl, adminState, path, heading);

async function expectToast(page: Page, text: string): Promise<void> {
  await visible(toasts(page).getByText(text, { exact: true }));
}

async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

async function fieldError(field: Locator): Promise<string> {
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  return describedBy(field);
}

async function courses(): Promise<Course[]> {
  return (await (await api.get('/api/courses')).json()) as Course[];
}

describe('courses', () => {
  it('creates a course with a prerequisite, refuses a cycle, toggles status and exports', async () => {
    await usingPage(adminPage('/courses', 'Courses'), async ({ page, errors }) => {
      const table = page.getByRole('table', { name: 'Course catalog' });
      await visible(table.getByRole('rowheader', { name: 'NUR100' }));
      expect(await table.getByRole('columnheader', { name: 'Code' }).getAttribute('aria-sort')).toBe('ascending');
      await screenshot(page, 'records-courses');
      await expectNoSeriousViolations(page, 'courses screen');

      await page.getByRole('button', { name: 'Add Course' }).click();
      const form = dialog(page, 'Add Course');
      await visible(form);
      // A form dialog starts in its first field.
      await expect.poll(() => form.getByLabel('Course code').evaluate((el) => el === document.activeElement)).toBe(true);
      // Empty submit: the shared zod schema answers beside each field, before any request.
      await form.getByRole('button', { name: 'Create course' }).click();
      expect(await fieldError(form.getByLabel('Course code'))).toContain('Course code is required');
      expect(await fieldError(form.getByLabel('Course name'))).toContain('Course name is required');
      expect(await form.getByLabel('Course code').evaluate((el) => el === document.activeElement)).toBe(true);

      await form.getByLabel('Course code').fill('NUR110');
      await form.getByLabel('Course name').fill('Medical-Surgical Nursing I');
      // A 160-hour clinical course is allowed, with a note beside the field (decision 040); past 2,000 is refused.
      await form.getByLabel('Clock hours').fill('160');
      await visible(form.getByText('160 hours is outside the 1–150 hours usually documented for a course. That is allowed', { exact: false }));
      await form.getByLabel('Clock hours').fill('2001');
      await form.getByRole('button', { name: 'Create course' }).click();
      expect(await fieldError(form.getByLabel('Clock hours'))).toContain('Clock hours must be between 1 and 2,000');
      await form.getByLabel('Clock hours').fill('120.5');
      await form.getByLabel('Program').selectOption({ label: 'Practical Nursing' });
      await form.getByLabel('Description').fill('Adult health nursing in acute care.');
      await form.getByRole('checkbox', { name: /NUR100/ }).check();
      await visible(form.getByText('1 selected: NUR100'));
      await screenshot(page, 'records-course-dialog');
      await expectNoSeriousViolations(page, 'add course dialog');
      await form.getByRole('button', { name: 'Create course' }).click();
      await expectToast(page, 'Course created');
      await hidden(form);

      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'NUR110' }) });
      await visible(row);
      expect(await row.textContent()).toContain('120.5');
      expect(await row.textContent()).toContain('Practical Nursing');
      const created = (await courses()).find((c) => c.courseCode === 'NUR110')!;
      expect(created.prerequisiteIds).toEqual([seed.foundations.id]);
      expect(created.clockHours).toBe(120.5);

      // Making NUR110 a prerequisite of NUR100 would close a cycle: the server's reason shows beside the picker.
      await page.getByRole('button', { name: 'Edit NUR100' }).click();
      const edit = dialog(page, 'Edit Course');
      await visible(edit);
      expect(await edit.getByRole('checkbox', { name: /NUR100/ }).count(), 'a course is never offered as its own prerequisite').toBe(0);
      await edit.getByRole('checkbox', { name: /NUR110/ }).check();
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await visible(edit.getByText('That would make a cycle: NUR100 would end up as a prerequisite of itself'));
      await expectToast(page, 'Failed to update course');
      // (Escape would first dismiss the toast, the top layer; the dialog's close button closes it.)
      await edit.getByRole('button', { name: 'Close' }).click();
      await hidden(edit);
      expect((await courses()).find((c) => c.courseCode === 'NUR100')!.prerequisiteIds).toEqual([]);

      // Deactivate, then activate again.
      await row.getByRole('button', { name: 'Deactivate NUR110' }).click();
      await expectToast(page, 'Course status updated');
      await visible(row.getByText('Inactive', { exact: true }));
      await page.getByLabel('Status').selectOption('active');
      await hidden(row);
      await page.getByLabel('Status').selectOption('');
      await row.getByRole('button', { name: 'Activate NUR110' }).click();
      await visible(row.getByText('Active', { exact: true }));

      // Search filters the table.
      await page.getByRole('searchbox', { name: 'Search courses' }).fill('surgical');
      await hidden(table.getByRole('rowheader', { name: 'NUR100' }));
      await visible(table.getByRole('rowheader', { name: 'NUR110' }));
      await page.getByRole('button', { name: 'Clear search' }).click();
      await visible(table.getByRole('rowheader', { name: 'NUR100' }));

      // Sorting is a header button; aria-sort follows.
      await table.getByRole('button', { name: 'Code' }).click();
      expect(await table.getByRole('columnheader', { name: 'Code' }).getAttribute('aria-sort')).toBe('descending');

      // Export downloads courses-export-{date}.csv.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^courses-export-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = fs.readFileSync(await download.path(), 'utf8');
      expect(csv.split('\n')[0]).toContain('courseCode,courseName');
      expect(csv).toContain('NUR110');
      await expectToast(page, 'Courses exported successfully.');
      expect(errors).toEqual([]);
    });
  });

  it('bulk-imports courses from .xlsx, and reports the bad row of a .csv without importing anything', async () => {
    await usingPage(adminPage('/courses', 'Courses'), async ({ page }) => {
      await page.getByRole('button', { name: 'Bulk Import' }).click();
      const box = dialog(page, 'Bulk Import Courses');
      await visible(box);
      for (const column of ['courseCode', 'courseName', 'description', 'clockHours', 'programId', 'sisCourseId', 'prerequisiteIds']) {
        await visible(box.getByText(column, { exact: true }));
      }
      await expectNoSeriousViolations(page, 'bulk import dialog');
      const file = box.getByLabel('File');

      // Client-side checks: type and size.
      await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await visible(box.getByText('Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).'));
      expect(await box.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
      await file.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
      await visible(box.getByText('File Too Large: Please upload a file smaller than 10MB.'));

      // An .xlsx workbook with two courses, one requiring NUR100.
      const sheet = XLSX.utils.aoa_to_sheet([
        ['courseCode', 'courseName', 'description', 'clockHours', 'programId', 'sisCourseId', 'prerequisiteIds'],
        ['NUR120', 'Pharmacology', 'Drug classes and dosage', 60, seed.program.id, 'SIS-C-120', `[${seed.foundations.id}]`],
        ['NUR130', 'Maternal Nursing', '', 45, seed.program.id, 'SIS-C-130', '[]'],
      ]);
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, 'Courses');
      const xlsx = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
      await file.setInputFiles({ name: 'courses.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
      await box.getByRole('button', { name: 'Import' }).click();
      await expectToast(page, 'Successfully imported 2 courses. 0 errors.');
      await hidden(box);
      const table = page.getByRole('table', { name: 'Course catalog' });
      await visible(table.getByRole('rowheader', { name: 'NUR120' }));
      await visible(table.getByRole('rowheader', { name: 'NUR130' }));
      expect((await courses()).find((c) => c.courseCode === 'NUR120')!.prerequisiteIds).toEqual([seed.foundations.id]);
      // At a laptop width the whole catalog row, actions included, fits without sideways scrolling.
      expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);
      await screenshot(page, 'records-courses-imported');

      // The imported 45-hour course edits from the form (decisions 012 and 040): its hours are valid on every path.
      await page.getByRole('button', { name: 'Edit NUR130' }).click();
      const editImported = dialog(page, 'Edit Course');
      await visible(editImported);
      await visible(editImported.getByText('Optional. 1 to 2,000, in steps of 0.5.'));
      await editImported.getByLabel('Description').fill('Prenatal, labor and newborn care');
      await editImported.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Course updated');
      await hidden(editImported);
      expect((await courses()).find((c) => c.courseCode === 'NUR130')).toMatchObject({ clockHours: 45, description: 'Prenatal, labor and newborn care' });

      // A .csv whose third line has clock hours out of range: nothing is imported, the row is reported.
      const before = (await courses()).length;
      await page.getByRole('button', { name: 'Bulk Import' }).click();
      await visible(box);
      const csv = [
        'courseCode,courseName,description,clockHours,programId,sisCourseId,prerequisiteIds',
        `NUR140,Pediatric Nursing,,60,${seed.program.id},SIS-C-140,[]`,
        `NUR150,Leadership,,2500,${seed.program.id},SIS-C-150,[]`,
      ].join('\r\n');
      await box.getByLabel('File').setInputFiles({ name: 'courses.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await box.getByRole('button', { name: 'Import' }).click();
      await visible(box.getByText('Failed to upload courses. Please check the file format.'));
      const problems = box.getByRole('table', { name: 'Problems found in the file' });
      await visible(problems);
      const problemRows = problems.getByRole('row').filter({ has: page.getByRole('rowheader') });
      expect(await problemRows.count()).toBe(1);
      const cells = await problemRows.first().locator('th, td').allTextContents();
      expect(cells).toEqual(['3', 'clockHours', '2500', 'clockHours must be between 1 and 2000']);
      await screenshot(page, 'records-bulk-import-errors');
      await expectNoSeriousViolations(page, 'bulk import dialog with problems');
      expect((await courses()).length).toBe(before);
      expect((await courses()).some((c) => c.courseCode === 'NUR140')).toBe(false);
      await box.getByRole('button', { name: 'Cancel' }).click();
      await hidden(box);
    });
  });
});

describe('schedules', () => {
  it('creates a schedule whose roster holds the program’s enrolled students, edits the roster and the schedule', async () => {
    await usingPage(adminPage('/schedules', 'Schedules'), async ({ page, errors }) => {
      const list = page.getByRole('list', { name: 'Schedules' });
      await visible(list.getByRole('heading', { name: 'Clinical Procedures' }));
      await expectNoSeriousViolations(page, 'schedules screen');

      await page.getByRole('button', { name: 'Create Schedule' }).click();
      const form = dialog(page, 'Create Schedule');
      await visible(form);
      await form.getByRole('button', { name: 'Create schedule' }).click();
      expect(await fieldError(form.getByLabel('Course', { exact: true }))).toContain('Course is required');
      expect(await fieldError(form.getByLabel('Cohort number'))).toContain('Cohort number is required');
      expect(await fieldError(form.getByLabel('Term number'))).toContain('Term number is required');
      expect(await fieldError(form.getByLabel('Day of week'))).toContain('Day of week is required');
      expect(await fieldError(form.getByLabel('Start time'))).toContain('Start time is required');
      expect(await fieldError(form.getByLabel('Course start date'))).toContain('Course start date is required');
      await expectNoSeriousViolations(page, 'create schedule dialog with errors');

      await form.getByLabel('Course', { exact: true }).selectOption({ label: 'NUR100 — Foundations of Nursing' });
      const instructorOptions = await form.getByLabel('Instructor').locator('option').allTextContents();
      expect(instructorOptions).toEqual(['No instructor yet', 'Irene Iverson']);
      await form.getByLabel('Instructor').selectOption({ label: 'Irene Iverson' });
      await form.getByLabel('Cohort number').fill('31');
      await form.getByLabel('Term number').selectOption({ label: 'Term 1' });
      await form.getByLabel('Day of week').selectOption({ label: 'Monday' });
      await form.getByLabel('Start time').fill('09:00');
      await form.getByLabel('End time').fill('08:00');
      await form.getByLabel('Course start date').fill('2025-01-06');
      await form.getByLabel('Course end date').fill('2025-03-31');
      await form.getByLabel('Room number').fill('204');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      expect(await fieldError(form.getByLabel('Cohort number'))).toContain('Cohort number must be between 1 and 30');
      expect(await fieldError(form.getByLabel('End time'))).toContain('End time must be after the start time');
      await form.getByLabel('Cohort number').fill('3');
      await form.getByLabel('End time').fill('12:00');
      await screenshot(page, 'records-schedule-dialog');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      await expectToast(page, 'Schedule created');
      await hidden(form);

      const card = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Foundations of Nursing' }) });
      await visible(card);
      const cardText = await card.textContent();
      expect(cardText).toContain('Cohort 3 · Term 1');
      expect(cardText).toContain('Monday, 9:00 AM – 12:00 PM');
      expect(cardText).toContain('Room 204');
      expect(cardText).toContain('Irene Iverson');
      // Ada, Grace and Mary are enrolled in Practical Nursing; Wendy withdrew; Alan is in another program.
      expect(cardText).toContain('3 students');
      await screenshot(page, 'records-schedules');

      await card.getByRole('button', { name: /^Roster/ }).click();
      const roster = dialog(page, 'Roster: NUR100 · Cohort 3, Term 1');
      await visible(roster);
      const rosterTable = roster.getByRole('table', { name: 'Students on the roster' });
      await visible(rosterTable.getByRole('rowheader', { name: 'Lovelace, Ada' }));
      const names = await rosterTable.getByRole('rowheader').allTextContents();
      expect(names).toEqual(['Hopper, Grace', 'Lovelace, Ada', 'Seacole, Mary']);
      await expectNoSeriousViolations(page, 'roster dialog');

      await rosterTable.getByRole('button', { name: 'Remove Grace Hopper from the roster' }).click();
      await hidden(rosterTable.getByRole('rowheader', { name: 'Hopper, Grace' }));

      await roster.getByRole('searchbox', { name: 'Search students to add' }).fill('Turing');
      const results = roster.getByRole('list', { name: 'Matching students' });
      await visible(results.getByText('Turing, Alan'));
      await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
      await results.getByRole('checkbox').check();
      await roster.getByRole('button', { name: 'Add selected (1)' }).click();
      await visible(rosterTable.getByRole('rowheader', { name: 'Turing, Alan' }));
      await roster.getByRole('searchbox', { name: 'Search students to add' }).fill('Lovelace');
      await visible(results.getByText('On roster'));
      await screenshot(page, 'records-roster');
      await roster.getByRole('button', { name: 'Done' }).click();
      await hidden(roster);
      await expect.poll(async () => card.textContent()).toContain('3 students');

      const schedule = ((await (await api.get('/api/schedules?search=NUR100')).json()) as Schedule[])[0]!;
      const entries = (await (await api.get(`/api/schedules/${schedule.id}/roster`)).json()) as { studentId: number }[];
      expect(entries.map((e) => e.studentId).sort()).toEqual([seed.ada.id, seed.alan.id, (await findStudent('Seacole')).id].sort());

      // Edit: a new room.
      await card.getByRole('button', { name: /^Edit/ }).click();
      const edit = dialog(page, 'Edit Schedule');
      await visible(edit);
      expect(await edit.getByLabel('Start time').inputValue()).toBe('09:00');
      await edit.getByLabel('Room number').fill('210');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Schedule updated');
      await expect.poll(async () => card.textContent()).toContain('Room 210');

      // Server-side search.
      await page.getByRole('searchbox', { name: 'Search schedules' }).fill('Iverson');
      await hidden(list.getByRole('heading', { name: 'Clinical Procedures' }));
      await visible(list.getByRole('heading', { name: 'Foundations of Nursing' }));
      await page.getByRole('searchbox', { name: 'Search schedules' }).fill('no such class');
      await visible(page.getByRole('heading', { name: 'No schedules match your search' }));
      expect(errors).toEqual([]);
    });
  });
});

async function findStudent(lastName: string): Promise<Student> {
  const found = (await (await api.get(`/api/students?search=${encodeURIComponent(lastName)}`)).json()) as Student[];
  return found[0]!;
}

describe('students', () => {
  it('searches, sorts and pages on the server, edits a student with field errors, creates and deletes one', async () => {
    const { context, page, errors } = await adminPage('/students', 'Students');
    const listRequests: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/students') listRequests.push(url.search);
    });
    try {
      const table = page.getByRole('table', { name: 'Students' });
      await visible(table.getByRole('rowheader', { name: 'Filler01, Pat' }));
      await visible(page.getByText(/Showing 1–25 of 29 students/));
      // SSNs are shown masked, to administrators only.
      await visible(table.getByRole('columnheader', { name: 'SSN' }));
      await screenshot(page, 'records-students');
      await expectNoSeriousViolations(page, 'students screen');

      await page.getByRole('button', { name: 'Next page' }).click();
      await visible(page.getByText(/Showing 26–29 of 29 students/));
      await visible(table.getByRole('rowheader', { name: 'Turing, Alan' }));

      await table.getByRole('button', { name: 'Name' }).click();
      expect(await table.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
      await visible(page.getByText(/Showing 1–25 of 29 students/));
      expect(listRequests.some((q) => q.includes('sort=name') && q.includes('order=desc') && q.includes('page=1'))).toBe(true);
      // Last name, then first name, both descending.
      await visible(table.getByRole('rowheader', { name: 'Withdrawn, Wendy' }));
      expect(await table.getByRole('rowheader').first().textContent()).toContain('Withdrawn, Wendy');

      // Search is debounced: typing a word sends one request, not one per key.
      const before = listRequests.length;
      await page.getByRole('searchbox', { name: 'Search students' }).pressSequentially('lovelace', { delay: 30 });
      await visible(page.getByText(/Showing 1–1 of 1 student$/));
      expect(listRequests.length - before).toBe(1);
      await visible(table.getByText('***-**-6789'));
      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Lovelace, Ada' }) });

      await row.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
      const form = dialog(page, 'Edit Student');
      await visible(form);
      expect(await form.getByLabel('Social security number').getAttribute('aria-describedby')).toBeTruthy();
      await visible(form.getByText('On file: ***-**-6789. Leave blank to keep it.'));
      await expectNoSeriousViolations(page, 'edit student dialog');
      await form.getByLabel('First name').fill('');
      await form.getByLabel('E-mail').fill('not-an-email');
      await form.getByRole('button', { name: 'Save changes' }).click();
      expect(await fieldError(form.getByLabel('First name'))).toContain('First name is required');
      expect(await fieldError(form.getByLabel('E-mail'))).toContain('Enter a valid e-mail address');
      await form.getByLabel('First name').fill('Augusta Ada');
      await form.getByLabel('E-mail').fill('ada@students.example');
      // Grace already has SIS-002: the server's 409 names the field and the form shows it there.
      await form.getByLabel('SIS student ID').fill('SIS-002');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await visible(form.getByText('Another student already has this SIS student ID'));
      expect(await form.getByLabel('SIS student ID').getAttribute('aria-invalid')).toBe('true');
      await expectToast(page, 'Failed to update student. Please try again.');
      await screenshot(page, 'records-student-dialog');
      await form.getByLabel('SIS student ID').fill('SIS-001');
      // Leaves and withdrawals have their own records: the status list does not offer them.
      expect(await form.getByLabel('Status').locator('option').allTextContents()).not.toContain('On leave (LOA)');
      await form.getByLabel('Status').selectOption({ label: 'Inactive' });
      await form.getByLabel('Phone').fill('555-0199');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Student updated');
      await hidden(form);
      await page.getByRole('searchbox', { name: 'Search students' }).fill('ada@students');
      const updatedRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Lovelace, Augusta Ada' }) });
      await visible(updatedRow);
      expect(await updatedRow.textContent()).toContain('Inactive');
      const stored = (await (await api.get(`/api/students/${seed.ada.id}`)).json()) as Student;
      expect(stored).toMatchObject({ firstName: 'Augusta Ada', status: 'inactive', phone: '555-0199', ssnMasked: '***-**-6789' });

      // A student with attendance history cannot be deleted: the 409 says to change the status.
      await page.getByRole('searchbox', { name: 'Search students' }).fill('Turing');
      await table.getByRole('button', { name: 'Delete Alan Turing' }).click();
      const confirm = dialog(page, 'Delete Alan Turing?');
      await visible(confirm);
      await expectNoSeriousViolations(page, 'delete student dialog');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await visible(confirm.getByText(STUDENT_HAS_ATTENDANCE));
      await expectToast(page, 'Failed to delete student. Please try again.');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await hidden(confirm);

      // Create, then delete, a student without history.
      await page.getByRole('button', { name: 'Add Student' }).click();
      const add = dialog(page, 'Add Student');
      await visible(add);
      expect(await add.getByLabel('Status').inputValue()).toBe('enrolled');
      await add.getByLabel('First name').fill('Temp');
      await add.getByLabel('Last name').fill('Person');
      await add.getByLabel('Program').selectOption({ label: 'Medical Assisting' });
      await add.getByRole('button', { name: 'Create student' }).click();
      await expectToast(page, 'Student created');
      await page.getByRole('searchbox', { name: 'Search students' }).fill('Temp Person');
      await table.getByRole('button', { name: 'Delete Temp Person' }).click();
      await dialog(page, 'Delete Temp Person?').getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Student deleted');
      await visible(table.getByText('No students match “Temp Person”.'));

      // On a phone the table scrolls sideways inside its card; the page itself does not.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Clear search' }).click();
      // Still sorted by name, descending: Withdrawn, Wendy comes first.
      await visible(table.getByRole('rowheader', { name: 'Withdrawn, Wendy' }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'records-students-phone');
      await expectNoSeriousViolations(page, 'students screen on a phone');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('users', () => {
  it('creates a user who sets a password from the link and signs in; edits, deactivates and reactivates', async () => {
    const { context, page, errors } = await adminPage('/users', 'User Management');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    try {
      const table = page.getByRole('table', { name: 'Staff accounts' });
      await visible(table.getByRole('rowheader', { name: /Morgan Admin/ }));
      await visible(table.getByText('(you)'));
      // An IT Administrator cannot act on a Super Administrator: no actions on that row.
      const ownerRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Skye Owner' }) });
      expect(await ownerRow.getByRole('button').count()).toBe(0);
      await expectNoSeriousViolations(page, 'users screen');

      // Own account: the role cannot be changed.
      await table.getByRole('button', { name: 'Edit Morgan Admin' }).click();
      const self = dialog(page, 'Edit User');
      await visible(self);
      expect(await self.getByLabel('Role').isDisabled()).toBe(true);
      await visible(self.getByText('You cannot change your own role.'));
      await page.keyboard.press('Escape');
      await hidden(self);

      await page.getByRole('button', { name: 'Add User' }).click();
      const form = dialog(page, 'Add User');
      await visible(form);
      const roleOptions = await form.getByLabel('Role').locator('option').allTextContents();
      expect(roleOptions).toEqual(['Choose a role', 'IT Administrator', 'Instructor', 'Support Staff']);
      await form.getByRole('button', { name: 'Create user' }).click();
      expect(await fieldError(form.getByLabel('First name'))).toContain('First name is required');
      expect(await fieldError(form.getByLabel('Role'))).toContain('Role must be one of');
      await expectNoSeriousViolations(page, 'add user dialog');
      await form.getByLabel('First name').fill('Nina');
      await form.getByLabel('Last name').fill('Newhire');
      await form.getByLabel('E-mail').fill(admin.email);
      await form.getByLabel('Username').fill('nnewhire');
      await form.getByLabel('Role').selectOption({ label: 'Instructor' });
      await form.getByRole('button', { name: 'Create user' }).click();
      // The e-mail is taken: the server's 409 shows beside the field.
      await visible(form.getByText('A user with this e-mail already exists'));
      await form.getByLabel('E-mail').fill('nina.newhire@school.example');
      await form.getByRole('button', { name: 'Create user' }).click();

      const linkDialog = dialog(page, 'Set-password link');
      await visible(linkDialog);
      const link = await linkDialog.getByLabel('Link').inputValue();
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/set-password\?token=[\w-]+/);
      await screenshot(page, 'records-user-link');
      await expectNoSeriousViolations(page, 'set-password link dialog');
      await linkDialog.getByRole('button', { name: 'Copy' }).click();
      await visible(linkDialog.getByRole('button', { name: 'Copied' }));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      await linkDialog.getByRole('button', { name: 'Done' }).click();
      await hidden(linkDialog);
      const newRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Nina Newhire' }) });
      await visible(newRow);
      expect(await newRow.textContent()).toContain('Never');

      // The new user opens the link in their own browser, sets a password and signs in.
      const fresh = await signedOutPage();
      try {
        await fresh.page.goto(link);
        await visible(fresh.page.getByRole('heading', { level: 1, name: 'Set your password' }));
        await expectNoSeriousViolations(fresh.page, 'set-password page');
        await fresh.page.getByLabel('New password').fill('short');
        await fresh.page.getByRole('button', { name: 'Set password' }).click();
        expect(await fieldError(fresh.page.getByLabel('New password'))).toContain('Password must be at least 8 characters');
        await fresh.page.getByLabel('New password').fill('a long enough secret');
        await fresh.page.getByLabel('Confirm password').fill('a different secret');
        await fresh.page.getByRole('button', { name: 'Set password' }).click();
        expect(await fieldError(fresh.page.getByLabel('Confirm password'))).toContain('The passwords do not match');
        await fresh.page.getByLabel('Confirm password').fill('a long enough secret');
        await fresh.page.getByRole('button', { name: 'Set password' }).click();
        await visible(fresh.page.getByRole('heading', { level: 1, name: 'Your password is set' }));
        await screenshot(fresh.page, 'records-set-password-done');
        await fresh.page.getByRole('link', { name: 'Sign in' }).click();
        await fresh.page.waitForURL((url) => url.pathname === '/login');
        await signIn(fresh.page, { email: 'nina.newhire@school.example', password: 'a long enough secret' });
        expect(await fresh.page.getByTestId('user-name').textContent()).toBe('Nina Newhire');

        // The link works once.
        await fresh.page.goto(link);
        await fresh.page.getByLabel('New password').fill('another long secret');
        await fresh.page.getByLabel('Confirm password').fill('another long secret');
        await fresh.page.getByRole('button', { name: 'Set password' }).click();
        await visible(fresh.page.getByRole('alert').getByText('This link is invalid or has expired. Ask an administrator for a new one.'));
        expect(fresh.errors).toEqual([]);
      } finally {
        await fresh.context.close();
      }

      // Edit.
      await newRow.getByRole('button', { name: 'Edit Nina Newhire' }).click();
      const edit = dialog(page, 'Edit User');
      await visible(edit);
      await edit.getByLabel('Last name').fill('Newman');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'User updated');
      const renamed = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Nina Newman' }) });
      await visible(renamed);

      // Deactivate after confirmation, then reactivate.
      await renamed.getByRole('button', { name: 'Deactivate Nina Newman' }).click();
      const confirm = dialog(page, 'Deactivate Nina Newman?');
      await visible(confirm);
      await expectNoSeriousViolations(page, 'deactivate user dialog');
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await expectToast(page, 'User deactivated');
      await visible(renamed.getByText('Inactive', { exact: true }));
      const stored = ((await (await api.get('/api/users')).json()) as User[]).find((u) => u.lastName === 'Newman')!;
      expect(stored.isActive).toBe(false);
      await renamed.getByRole('button', { name: 'Reactivate Nina Newman' }).click();
      await expectToast(page, 'User reactivated');
      await visible(renamed.getByText('Active', { exact: true }));

      // A fresh link for an existing user.
      await renamed.getByRole('button', { name: 'New set-password link for Nina Newman' }).click();
      await visible(linkDialog);
      expect(await linkDialog.getByLabel('Link').inputValue()).not.toBe(link);
      await page.keyboard.press('Escape');

      // Search.
      await page.getByRole('searchbox', { name: 'Search users' }).fill('support staff');
      await visible(table.getByRole('rowheader', { name: 'Sam Support' }));
      expect(await table.getByRole('rowheader').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      await screenshot(page, 'records-users');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('support staff', () => {
  it('sees Students but not Courses, manages students without SSNs, and the API refuses course changes', async () => {
    await usingPage(signedOutPage(), async ({ page, errors }) => {
      await signIn(page, support);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await visible(nav.getByRole('link', { name: 'Students' }));
      expect(await nav.getByRole('link', { name: 'Courses' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Schedules' }).count()).toBe(0);

      await nav.getByRole('link', { name: 'Students' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Students' }));
      const table = page.getByRole('table', { name: 'Students' });
      await visible(table.getByRole('rowheader', { name: 'Hopper, Grace' }));
      expect(await table.getByRole('columnheader', { name: 'SSN' }).count()).toBe(0);
      expect(await table.textContent()).not.toContain('6789');
      await visible(page.getByRole('button', { name: 'Add Student' }));
      await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
      const form = dialog(page, 'Edit Student');
      await visible(form);
      expect(await form.getByLabel('Social security number').count()).toBe(0);
      await page.keyboard.press('Escape');

      // The API refuses course changes to this role, even from a signed-in page.
      const statuses = await page.evaluate(async (courseId) => {
        const send = (method: string, url: string, body?: unknown) =>
          fetch(url, {
            method,
            credentials: 'include',
            headers: body ? { 'Content-Type': 'application/json' } : {},
            body: body ? JSON.stringify(body) : undefined,
          }).then((r) => r.status);
        return {
          create: await send('POST', '/api/courses', { courseCode: 'HACK1', courseName: 'Nope' }),
          update: await send('PUT', `/api/courses/${courseId}`, { courseCode: 'NUR100', courseName: 'Renamed' }),
          toggle: await send('PATCH', `/api/courses/${courseId}/toggle-status`),
          upload: await send('POST', '/api/courses/bulk-upload'),
          export: await send('GET', '/api/courses/export'),
        };
      }, seed.foundations.id);
      expect(statuses).toEqual({ create: 403, update: 403, toggle: 403, upload: 403, export: 403 });
      expect((await page.request.post('/api/courses', { data: { courseCode: 'HACK2', courseName: 'Nope' } })).status()).toBe(403);

      await page.goto('/courses');
      await visible(page.getByRole('heading', { level: 1, name: 'Access Denied' }));
      expect(errors).toEqual([]);
    });
  });
});
