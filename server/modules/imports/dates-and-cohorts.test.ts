import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

import { csv, dataCounts, upload, uploadTemplates } from '../../test/import-support.ts';

import { DateReading } from './dates.ts';

import { RawTable } from './read-file.ts';

// Decision 047: Excel's US dates ('8/24/2026') were refused; schools name cohorts 'PN-26A'.

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-01-04T15:00:00Z') });
  admin = (await t.signedIn('it_admin')).cookie;
  await uploadTemplates(t, admin, ['programs', 'courses', 'instructors']);
});
afterAll(() => t.close());

const STUDENT_HEADER = ['sisStudentId', 'firstName', 'lastName', 'programId', 'enrollmentDate', 'dateOfBirth'];
const students = (rows: [string, string, string][]) =>
  csv(
    STUDENT_HEADER,
    rows.map(([sis, enrolled, born]) => [sis, 'Dana', sis, 'SIS-PRG-PN', enrolled, born]),
  );
const datesOf = async (sisIds: string[]) => {
  const { rows } = await t.db.execute<{ sis: string; enrolled: string; born: string }>(sql`
    select sis_student_id as sis, enrollment_date::text as enrolled, date_of_birth::text as born from students
     where sis_student_id = any(${`{${sisIds.join(',')}}`}::text[]) order by sis_student_id`);
  return rows.map((r) => [r.sis, r.enrolled, r.born]);
};

describe('dates as spreadsheets write them', () => {
  it("reads Excel's US dates, ambiguous ones as month/day/year, and says so", async () => {
    const file = students([
      ['US-1', '8/24/2026', '4/17/2001'],
      ['US-2', '3/4/2027', '11/2/1994'],
    ]);
    const dry = await upload(t, admin, 'students', 'us.csv', file, '?dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().notes).toEqual([
      'Dates read as month/day/year (US), such as 3/4/2027 = 2027-03-04 (row 3, enrollmentDate): the file writes days over 12 second.',
    ]);
    const res = await upload(t, admin, 'students', 'us.csv', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(await datesOf(['US-1', 'US-2'])).toEqual([
      ['US-1', '2026-08-24', '2001-04-17'],
      ['US-2', '2027-03-04', '1994-11-02'],
    ]);
  });

  it('reads a file whose dates all say day/month/year that way, and names the reason', async () => {
    const res = await upload(
      t,
      admin,
      'students',
      'dmy.csv',
      students([
        ['DM-1', '24/08/2026', '03/04/2001'],
        ['DM-2', '01.09.2026', '17.04.2001'],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notes).toEqual([
      'Dates read as day/month/year, such as 01.09.2026 = 2026-09-01 (row 3, enrollmentDate): the file writes days over 12 first.',
    ]);
    expect(await datesOf(['DM-1', 'DM-2'])).toEqual([
      ['DM-1', '2026-08-24', '2001-04-03'],
      ['DM-2', '2026-09-01', '2001-04-17'],
    ]);
  });

  it('refuses the ambiguous dates of a file that mixes both orders, and impossible ones, naming row and column', async () => {
    const before = await dataCounts(t.db);
    const res = await upload(
      t,
      admin,
      'students',
      'mixed.csv',
      students([
        ['MX-1', '8/24/2026', '24/08/2001'],
        ['MX-2', '3/4/2027', '2/30/2001'],
        ['MX-3', '8/24/26', '5/5/2001'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as { row: number; column: string; message: string }[];
    expect(errors.map((e) => [e.row, e.column])).toEqual([
      [3, 'enrollmentDate'],
      [3, 'dateOfBirth'],
      [4, 'enrollmentDate'],
    ]);
    expect(errors[0]!.message).toBe(
      'enrollmentDate 3/4/2027 is ambiguous: the file has month/day/year dates (8/24/2026, row 2, enrollmentDate) and day/month/year dates (24/08/2001, row 2, dateOfBirth); write it as YYYY-MM-DD',
    );
    expect(errors[1]!.message).toMatch(/2\/30\/2001 is not a date/);
    expect(errors[2]!.message).toMatch(/four digits/);
    expect(await dataCounts(t.db)).toEqual(before);
  });

  it('reads Excel serial day numbers, and date cells of a spreadsheet whatever their display format', async () => {
    const serial = await upload(t, admin, 'students', 'serial.csv', students([['SR-1', '46258', '37000']]), '?dryRun=true');
    expect(serial.statusCode, serial.body).toBe(200);
    expect(serial.json().notes).toEqual(['Excel serial numbers read as dates, such as 46258 = 2026-08-24 (row 2, enrollmentDate).']);

    const ws = XLSX.utils.aoa_to_sheet([STUDENT_HEADER, ['XL-1', 'Dana', 'XL-1', 'SIS-PRG-PN', '', '']]);
    // A US author's short date and a European author's: both are 24 August 2026 in the cell.
    ws['E2'] = { t: 'n', v: 46258, z: 'm/d/yy' };
    ws['F2'] = { t: 'n', v: 37000, z: 'dd/mm/yyyy' };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Students');
    const res = await upload(t, admin, 'students', 'dates.xlsx', XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notes).toEqual(['Dates read as YYYY-MM-DD, such as 2026-08-24 = 2026-08-24 (row 2, enrollmentDate).']);
    expect(await datesOf(['XL-1'])).toEqual([['XL-1', '2026-08-24', '2001-04-19']]);
  });

  it('refuses a later date that contradicts how an earlier part of the file read an ambiguous one', () => {
    const part = (rows: string[], first: number) => {
      const table = new RawTable(['enrollmentDate'], 1);
      rows.forEach((r, i) => table.add([r], first + i));
      return table;
    };
    const dates = new DateReading();
    const column = [{ index: 0, name: 'enrollmentDate' }];
    dates.learn(part(['3/4/2027'], 2), column);
    expect(dates.normalise('3/4/2027', 2, 'enrollmentDate')).toEqual({ ok: true, value: '2027-03-04' });
    dates.learn(part(['24/08/2026'], 5002), column);
    expect(dates.normalise('24/08/2026', 5002, 'enrollmentDate')).toEqual({
      ok: false,
      message:
        'enrollmentDate 24/08/2026 is day/month/year, but 3/4/2027 (row 2, enrollmentDate) was read as month/day/year (US): write the dates as YYYY-MM-DD',
    });
  });
});

describe('named cohorts in the schedules import', () => {
  const SCHEDULE_HEADER = ['sisScheduleId', 'courseId', 'dayOfWeek', 'startTime', 'endTime', 'courseStartDate', 'courseEndDate', 'termNumber'];
  const row = (sis: string, course: string) => [sis, course, '1', '08:00', '12:00', '1/11/2027', '5/7/2027', '1'];
  const cohortsOf = async (prefix: string) =>
    (
      await t.db.execute<{ sis: string; n: number; name: string | null }>(
        sql`select sis_schedule_id as sis, cohort_number as n, cohort_name as name from schedules where sis_schedule_id like ${`${prefix}%`} order by sis_schedule_id`,
      )
    ).rows.map((r) => [r.sis, r.n, r.name]);

  it('takes a cohortName that is not a number as the name, numbering the cohort; a number in it is the cohort number', async () => {
    const res = await upload(
      t,
      admin,
      'schedules',
      'named.csv',
      csv(
        [...SCHEDULE_HEADER, 'cohortName'],
        [
          [...row('NC-1', 'SIS-CRS-NUR101'), 'PN-26A'],
          [...row('NC-2', 'SIS-CRS-NUR102'), 'pn-26a'],
          [...row('NC-3', 'SIS-CRS-NUR101'), 'PN-26B'],
          [...row('NC-4', 'SIS-CRS-MA110'), '12'],
        ],
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await cohortsOf('NC-')).toEqual([
      ['NC-1', 1, 'PN-26A'],
      ['NC-2', 1, 'pn-26a'],
      ['NC-3', 2, 'PN-26B'],
      ['NC-4', 12, null],
    ]);
    // Re-imported later with its number: the name keeps it.
    const again = await upload(t, admin, 'schedules', 'again.csv', csv([...SCHEDULE_HEADER, 'cohortName'], [[...row('NC-5', 'SIS-CRS-NUR102'), 'PN-26B']]));
    expect(again.statusCode, again.body).toBe(200);
    expect((await cohortsOf('NC-5'))[0]).toEqual(['NC-5', 2, 'PN-26B']);
  });

  it('asks for a cohortNumber or a cohortName, in the header and in each row', async () => {
    const neither = await upload(t, admin, 'schedules', 'neither.csv', csv(SCHEDULE_HEADER, [row('NX-1', 'SIS-CRS-NUR101')]));
    expect(neither.json().errors).toEqual([{ row: 1, column: 'cohortNumber', message: 'Missing required column cohortNumber (or cohortName)' }]);
    const blank = await upload(
      t,
      admin,
      'schedules',
      'blank.csv',
      csv(
        [...SCHEDULE_HEADER, 'cohortNumber', 'cohortName'],
        [
          [...row('NX-2', 'SIS-CRS-NUR101'), '', ''],
          [...row('NX-3', 'SIS-CRS-NUR101'), '3', '31'],
          [...row('NX-4', 'SIS-CRS-NUR101'), '3', '4'],
        ],
      ),
    );
    expect(blank.json().errors.map((e: { row: number; column: string; message: string }) => [e.row, e.column, e.message])).toEqual([
      [2, 'cohortNumber', 'cohortNumber is required (or cohortName)'],
      [3, 'cohortName', 'cohortName 31 is a cohort number, which must be between 1 and 30'],
      [4, 'cohortName', 'cohortName 4 is a cohort number other than cohortNumber 3'],
    ]);
  });
});
