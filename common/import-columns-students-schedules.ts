// The students' and the schedules' template columns (common/import-columns.ts lists every type).
import { COHORT, STUDENT_STATUSES, TERM } from './constants.ts';
import { col, syncDate, text, type ImportTypeDefinition } from './import-column-rules.ts';
import { COHORT_NAME_MAX } from './schedules.ts';

export const STUDENTS: ImportTypeDefinition = {
  type: 'students',
  step: 4,
  label: 'Students',
  prerequisites: [1],
  key: 'sisStudentId',
  templateFile: 'students_template.csv',
  notes: [
    "Enrolled students join the rosters of their program's active schedules that have not ended.",
    'Social security numbers are encrypted when stored and only ever shown masked (last four digits) to administrators.',
  ],
  columns: [
    col(
      'sisStudentId',
      text(100),
      "The student's identifier in the SIS; re-importing updates the student with this ID.",
      ['SIS-STU-260001', 'SIS-STU-260002', 'SIS-STU-260003', 'SIS-STU-260004'],
      { required: true, sis: true },
    ),
    col('firstName', text(100), 'Given name.', ['Aaliyah', 'Tomás', 'Grace', 'Daniel'], { required: true }),
    col('lastName', text(100), 'Family name.', ['Johnson', 'Herrera', 'Okafor', 'Kim'], { required: true }),
    col('email', { kind: 'email' }, "The student's e-mail; used to match scans.", [
      'aaliyah.johnson@students.example.edu',
      'tomas.herrera@students.example.edu',
      'grace.okafor@students.example.edu',
      'daniel.kim@students.example.edu',
    ]),
    col('phone', { kind: 'phone' }, 'Any format; 10-digit numbers are formatted (555) 123-4567.', ['555-301-2201', '555-301-2202', '(555) 301-2203', '']),
    col(
      'programId',
      { kind: 'ref', target: 'programs' },
      'The program the student is enrolled in (SIS program ID or numeric ID).',
      ['SIS-PRG-PN', 'SIS-PRG-PN', 'SIS-PRG-MA', 'SIS-PRG-PHL'],
      { required: true },
    ),
    col('enrollmentDate', { kind: 'date' }, 'Date of enrolment.', ['2026-08-24', '2026-08-24', '2026-09-08', '2027-01-11']),
    col('status', { kind: 'enum', values: STUDENT_STATUSES, default: 'enrolled' }, 'Student status; blank means enrolled.', [
      'enrolled',
      'enrolled',
      'enrolled',
      'enrolled',
    ]),
    col('dateOfBirth', { kind: 'date' }, 'Date of birth.', ['2001-04-17', '1994-11-02', '1999-07-23', '2003-02-09']),
    col('address', text(500), 'Postal address.', [
      '1420 Elm Street, Springfield, IL 62704',
      '88 Lakeview Drive, Apt 3B, Springfield, IL 62711',
      '301 Walnut Avenue, Chatham, IL 62629',
      '17 Birch Court, Rochester, IL 62563',
    ]),
    col('emergencyContact', text(500), 'Who to call, with their number.', [
      'Denise Johnson (mother) 555-301-2299',
      'Lucia Herrera (spouse) 555-301-2298',
      'Samuel Okafor (father) 555-301-2297',
      'Min-ji Kim (sister) 555-301-2296',
    ]),
    col('socialSecurityNumber', { kind: 'ssn' }, 'Nine digits, with or without dashes; encrypted at rest, shown masked.', [
      '900-12-0001',
      '900-12-0002',
      '',
      '900-12-0004',
    ]),
    col('financialAid', text(200), 'Aid programs.', ['Pell Grant', 'Pell Grant; Direct Subsidized Loan', '', 'Workforce Innovation (WIOA)']),
    col('veteranStatus', { kind: 'boolean' }, 'Whether the student is a veteran (Yes/No or true/false).', ['No', 'Yes', 'No', 'No']),
    col('graduationDate', { kind: 'date' }, 'Expected or actual graduation date.', ['2027-08-13', '2027-08-13', '2027-06-18', '2027-05-14']),
    col('externalStudentId', text(100), 'Identifier of the student in another system.', ['EXT-S-260001', 'EXT-S-260002', 'EXT-S-260003', 'EXT-S-260004'], {
      sis: true,
    }),
    col('nationalStudentId', text(100), 'National or state student identifier.', ['NSI-IL-5528011', 'NSI-IL-5528012', '', 'NSI-IL-5528014']),
    col('transcriptId', text(100), 'Transcript record identifier.', ['TR-260001', 'TR-260002', 'TR-260003', 'TR-260004']),
    syncDate(['2026-11-02 09:00:00', '2026-11-02 09:00:00', '2026-11-02 09:00:00', '']),
  ],
};

export const SCHEDULES: ImportTypeDefinition = {
  type: 'schedules',
  step: 5,
  label: 'Schedules',
  prerequisites: [1, 2, 3],
  key: 'sisScheduleId',
  templateFile: 'schedules_template.csv',
  notes: [
    'courseId names an existing course by SIS course ID or numeric ID; instructorId an active instructor by SIS user ID, numeric ID or e-mail.',
    "A schedule's roster is filled with the enrolled students of its course's program.",
    'The template names are canonical; the documentation names startDate, endDate and meetingDays are accepted for courseStartDate, courseEndDate and dayOfWeek.',
    `Each row needs a cohortNumber (${COHORT.min}–${COHORT.max}) or a cohortName such as PN-26A. A cohortName that is a whole number is read as the cohort number (as older files wrote it); a named cohort without a number gets the number its name already has in the program, or the lowest one free.`,
  ],
  columns: [
    col(
      'sisScheduleId',
      text(100),
      "The schedule's identifier in the SIS; re-importing updates the schedule with this ID.",
      ['SIS-SCH-NUR101-C7', 'SIS-SCH-NUR102-C7', 'SIS-SCH-MA110-C4', 'SIS-SCH-PHL101-C2'],
      { required: true, sis: true },
    ),
    col(
      'courseId',
      { kind: 'ref', target: 'courses' },
      'The course taught (SIS course ID or numeric ID).',
      ['SIS-CRS-NUR101', 'SIS-CRS-NUR102', 'SIS-CRS-MA110', 'SIS-CRS-PHL101'],
      { required: true },
    ),
    col('instructorId', { kind: 'ref', target: 'instructors' }, 'The instructor (SIS user ID, numeric ID or e-mail); blank for none yet.', [
      'SIS-USR-1001',
      'SIS-USR-1001',
      'SIS-USR-1002',
      'SIS-USR-1003',
    ]),
    col('roomNumber', text(50), 'Room where the class meets.', ['A-214', 'Clinical Site', 'B-105', 'C-Lab 3']),
    col('startTime', { kind: 'time' }, 'Class start, school time (HH:MM, 24-hour; 8:00 AM also accepted).', ['08:00', '07:00', '18:00', '09:00'], {
      required: true,
    }),
    col('endTime', { kind: 'time' }, 'Class end; an end before the start means the class runs past midnight.', ['12:00', '15:30', '21:00', '13:00'], {
      required: true,
    }),
    col('dayOfWeek', { kind: 'dayOfWeek' }, 'Meeting day, one per row.', ['1', '3', '2', '6'], { required: true, aliases: ['meetingDays', 'meeting_days'] }),
    col('courseStartDate', { kind: 'date' }, 'First class date.', ['2027-01-11', '2027-01-13', '2027-01-12', '2027-01-16'], {
      required: true,
      aliases: ['startDate', 'start_date'],
    }),
    col('courseEndDate', { kind: 'date' }, 'Last class date; not before the start date.', ['2027-05-07', '2027-05-12', '2027-04-27', '2027-03-27'], {
      required: true,
      aliases: ['endDate', 'end_date'],
    }),
    col(
      'cohortNumber',
      { kind: 'integer', min: COHORT.min, max: COHORT.max },
      'Cohort number; may be blank when cohortName names the cohort.',
      ['7', '7', '4', '2'],
      {
        required: true,
        alternative: 'cohortName',
      },
    ),
    col('cohortName', text(COHORT_NAME_MAX), 'What the school calls the cohort, such as PN-26A; a whole number here is the cohort number.', [
      'PN-27A',
      'PN-27A',
      'MA-27A',
      '',
    ]),
    col('termNumber', { kind: 'integer', min: TERM.min, max: TERM.max }, 'Term within the program.', ['2', '2', '1', '1'], { required: true }),
    col('isActive', { kind: 'boolean', default: true }, 'Whether the schedule runs; blank means true.', ['true', 'true', 'true', 'true']),
    col('room', text(200), 'Room name or building.', ['Nursing Skills Lab', 'Springfield Care Center', 'Clinical Skills Room', 'Phlebotomy Lab']),
    col('capacity', { kind: 'integer', min: 0, max: 10_000 }, 'Seats.', ['24', '12', '20', '12']),
    col('notes', text(2000), 'Free text.', ['Bring skills checklist.', 'Scrubs and badge required on site.', '', 'Weekend section.']),
    col('holidayExceptions', { kind: 'dateList' }, 'Dates with no class, separated by spaces.', ['2027-01-18 2027-03-15', '2027-03-17', '2027-03-16', '']),
    col('makeupDates', { kind: 'dateList' }, 'Extra class dates, separated by spaces.', ['2027-05-10', '2027-05-14', '', '2027-04-03']),
    col('gradingPolicy', text(1000), 'How the course is graded.', [
      '75% theory minimum; skills pass/fail',
      'Clinical evaluation pass/fail',
      '70% minimum',
      '100 successful venipunctures',
    ]),
    col('term', text(100), 'Term name.', ['Spring 2027', 'Spring 2027', 'Spring 2027', 'Spring 2027']),
    col('externalScheduleId', text(100), 'Identifier of the section in another system.', ['EXT-SEC-5101', 'EXT-SEC-5102', 'EXT-SEC-5201', 'EXT-SEC-5301'], {
      sis: true,
    }),
    col('academicYear', text(20), 'Academic year.', ['2026-2027', '2026-2027', '2026-2027', '2026-2027']),
    col('registrationCode', text(100), 'Registration code of the section.', ['REG-NUR101-S27', 'REG-NUR102-S27', 'REG-MA110-S27', 'REG-PHL101-S27']),
    syncDate(['2026-11-02 09:00:00', '2026-11-02 09:00:00', '2026-11-02 09:00:00', '']),
  ],
};

/** The five types in upload (wizard) order. */
