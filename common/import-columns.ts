import {
  COURSE_CATEGORIES,
  COURSE_HOURS,
  CREDENTIAL_TYPES,
  EMPLOYMENT_TYPES,
  MAX_UPLOAD_BYTES,
  PROGRAM_HOURS,
  PROGRAM_STATUSES,
  SPEC_COURSE_HOURS,
  SPEC_PROGRAM_HOURS,
  UPLOAD_TYPES,
  type UploadType,
} from './constants.ts';
import { SYNC_STATUS, col, ruleText, syncDate, text, type ImportTypeDefinition } from './import-column-rules.ts';

import type { ImportColumnsResponse } from './uploads.ts';
import { SCHEDULES, STUDENTS } from './import-columns-students-schedules.ts';

/**
 * The one definition of every CSV import column of SPEC §3, per upload type. The importer
 * (server/modules/imports) validates with these rules, the templates are generated from the
 * sample values, and the CSV Templates tab lists the columns, the upload sequence and the rules
 * from them: the documentation cannot disagree with the importer. A column's model and rules are
 * in import-column-rules.ts.
 */

const PROGRAMS: ImportTypeDefinition = {
  type: 'programs',
  step: 1,
  label: 'Programs',
  prerequisites: [],
  key: 'sisProgramId',
  templateFile: 'programs_template.csv',
  notes: ['Programs come first: courses and students name their program by its SIS program ID.'],
  columns: [
    col(
      'sisProgramId',
      text(100),
      "The program's identifier in the SIS; re-importing updates the program with this ID.",
      ['SIS-PRG-PN', 'SIS-PRG-MA', 'SIS-PRG-PHL'],
      { required: true, sis: true },
    ),
    col('programName', text(200), 'Name shown on screens and reports.', ['Practical Nursing', 'Medical Assisting', 'Phlebotomy Technician'], {
      required: true,
    }),
    col('programCode', text(50), 'Short code, unique across programs.', ['PN-DIP', 'MA-CERT', 'PHL-CERT']),
    col(
      'durationHours',
      { kind: 'decimal', min: PROGRAM_HOURS.min, max: PROGRAM_HOURS.max },
      `Total clock hours of the program, in steps of ${PROGRAM_HOURS.step}: the hours its clock-hour policy counts. A blank cell keeps the program's hours.`,
      ['320', '240', '120'],
    ),
    col('credentialType', { kind: 'enum', values: CREDENTIAL_TYPES }, 'Credential awarded on completion.', ['Diploma', 'Certificate', 'Certificate']),
    col('description', text(2000), 'Free text.', [
      'Prepares graduates for the NCLEX-PN licensure examination through classroom, lab and clinical hours.',
      'Clinical and administrative skills for physician offices and outpatient clinics.',
      'Venipuncture, specimen handling and patient safety for laboratory settings.',
    ]),
    col('status', { kind: 'enum', values: PROGRAM_STATUSES, default: 'active' }, 'Program status; blank means active.', ['active', 'active', 'active']),
    col('startDate', { kind: 'date' }, 'First day of the program.', ['2026-08-24', '2026-09-08', '2027-01-11']),
    col('endDate', { kind: 'date' }, 'Last day of the program; not before the start date.', ['2027-08-13', '2027-06-18', '2027-05-14']),
    col('accreditationBody', text(200), 'Accrediting agency.', ['ABHES', 'ABHES', 'ACCSC']),
    col('programDirector', text(200), 'Person responsible for the program.', ['Dana Whitfield, MSN, RN', 'Marcus Reyes, CMA', 'Priya Natarajan, MLS(ASCP)']),
    col('tuitionCost', { kind: 'decimal', min: 0, max: 10_000_000 }, 'Tuition in dollars.', ['18500.00', '14250.00', '3200.00']),
    col('capacity', { kind: 'integer', min: 0, max: 100_000 }, 'Seats per cohort.', ['48', '30', '20']),
    col('campusLocation', text(200), 'A campus name, or Online.', ['Main Campus', 'Main Campus', 'Online']),
    col('externalProgramId', text(100), 'Identifier of the program in another system (state board, LMS).', ['EXT-PN-01', 'EXT-MA-01', 'EXT-PHL-01'], {
      sis: true,
    }),
    col('regulatoryCode', text(100), 'Regulatory classification, such as the CIP code.', ['CIP 51.3901', 'CIP 51.0801', 'CIP 51.1009']),
    syncDate(['2026-11-02 09:00:00', '2026-11-02 09:00:00', '']),
    col('syncStatus', SYNC_STATUS, 'SIS sync state; blank means pending.', ['synced', 'synced', 'pending'], { sis: true }),
  ],
};

const COURSES: ImportTypeDefinition = {
  type: 'courses',
  step: 2,
  label: 'Courses',
  prerequisites: [1],
  key: 'sisCourseId',
  templateFile: 'courses_template.csv',
  notes: [
    'programId names an existing program by its SIS program ID or its numeric ID.',
    'prerequisiteIds lists courses already in the database or on an earlier row of the same file, by numeric ID or SIS course ID.',
  ],
  columns: [
    col(
      'sisCourseId',
      text(100),
      "The course's identifier in the SIS; re-importing updates the course with this ID.",
      ['SIS-CRS-NUR101', 'SIS-CRS-NUR102', 'SIS-CRS-MA110', 'SIS-CRS-PHL101'],
      { required: true, sis: true },
    ),
    col(
      'programId',
      { kind: 'ref', target: 'programs' },
      'The program the course belongs to (SIS program ID or numeric ID).',
      ['SIS-PRG-PN', 'SIS-PRG-PN', 'SIS-PRG-MA', 'SIS-PRG-PHL'],
      { required: true },
    ),
    col('courseCode', text(50), 'Short code, unique across courses (case-insensitive).', ['NUR-101', 'NUR-102', 'MA-110', 'PHL-101'], { required: true }),
    col(
      'courseName',
      text(200),
      'Name shown on schedules and the scan page.',
      ['Fundamentals of Nursing', 'Clinical Practice I', 'Medical Terminology', 'Venipuncture Techniques'],
      { required: true },
    ),
    col('clockHours', { kind: 'decimal', min: COURSE_HOURS.min, max: COURSE_HOURS.max }, `Clock hours of the course, in steps of ${COURSE_HOURS.step}.`, [
      '90',
      '120',
      '45',
      '60',
    ]),
    col('description', text(2000), 'Free text.', [
      'Nursing process, safety, infection control and basic patient care.',
      'Supervised clinical rotation in long-term care.',
      'Word roots, prefixes and suffixes used in clinical documentation.',
      'Venipuncture and capillary puncture with order of draw.',
    ]),
    col('prerequisiteIds', { kind: 'idList' }, 'Courses that must be taken first, as a JSON array.', ['[]', '["SIS-CRS-NUR101"]', '[]', '[]']),
    col('isActive', { kind: 'boolean', default: true }, 'Whether the course is offered; blank means true.', ['true', 'true', 'true', 'true']),
    col('syllabusUrl', { kind: 'url' }, 'Link to the syllabus (http or https).', [
      'https://lms.example.edu/syllabi/nur-101',
      'https://lms.example.edu/syllabi/nur-102',
      'https://lms.example.edu/syllabi/ma-110',
      '',
    ]),
    col('textbooks', text(1000), 'Required texts.', [
      'Fundamentals of Nursing, 11th ed.',
      '',
      'Medical Terminology for Health Professions, 9th ed.',
      'Phlebotomy Essentials, 8th ed.',
    ]),
    col('labHours', { kind: 'decimal', min: 0, max: 2000 }, 'Lab hours within the clock hours.', ['30', '0', '0', '30']),
    col('lectureHours', { kind: 'decimal', min: 0, max: 2000 }, 'Lecture hours within the clock hours.', ['60', '0', '45', '30']),
    col('passingGrade', { kind: 'decimal', min: 0, max: 100 }, 'Minimum passing percent.', ['75', '80', '70', '75']),
    col('category', { kind: 'enum', values: COURSE_CATEGORIES }, 'Kind of course.', ['Core', 'Clinical', 'Core', 'Clinical']),
    col('credits', { kind: 'decimal', min: 0, max: 999 }, 'Credits, where the school awards them.', ['6', '4', '3', '4']),
    col('externalCourseId', text(100), 'Identifier of the course in another system.', ['EXT-NUR101', 'EXT-NUR102', 'EXT-MA110', 'EXT-PHL101'], { sis: true }),
    col('departmentCode', text(50), 'Department.', ['NUR', 'NUR', 'ALH', 'LAB']),
    col('transferCredits', { kind: 'yesNo' }, 'Whether the credits transfer to other schools.', ['No', 'No', 'Yes', 'No']),
    syncDate(['2026-11-02 09:00:00', '2026-11-02 09:00:00', '2026-11-02 09:00:00', '']),
  ],
};

/** SPEC §3's simpler course CSV, read and written by the courses screen (Bulk Import, Export). */
export const COURSE_LIST_COLUMNS = ['courseCode', 'courseName', 'description', 'clockHours', 'programId', 'sisCourseId', 'prerequisiteIds'] as const;
/**
 * The course list as the one importer reads it: the course template's columns and rules, with
 * only courseCode and courseName required (a course is found by SIS course ID, else by code).
 */
export const COURSE_LIST: ImportTypeDefinition = {
  ...COURSES,
  columns: COURSES.columns.map((c) => ({ ...c, required: c.name === 'courseCode' || c.name === 'courseName' })),
};

const INSTRUCTORS: ImportTypeDefinition = {
  type: 'instructors',
  step: 3,
  label: 'Instructors',
  prerequisites: [1, 2],
  key: 'sisUserId',
  templateFile: 'instructors_template.csv',
  notes: [
    'Each instructor becomes a user with the Instructor role; the e-mail is the login. No password is set: the instructor gets a set-password link from User Management or signs in with single sign-on.',
    'An existing instructor account with the same e-mail is linked to the SIS user ID instead of duplicated.',
  ],
  columns: [
    col(
      'sisUserId',
      text(100),
      "The instructor's identifier in the SIS; re-importing updates the instructor with this ID.",
      ['SIS-USR-1001', 'SIS-USR-1002', 'SIS-USR-1003'],
      { required: true, sis: true },
    ),
    col(
      'email',
      { kind: 'email' },
      'Becomes the login; unique across users.',
      ['dana.whitfield@example.edu', 'marcus.reyes@example.edu', 'priya.natarajan@example.edu'],
      { required: true },
    ),
    col('firstName', text(100), 'Given name.', ['Dana', 'Marcus', 'Priya'], { required: true }),
    col('lastName', text(100), 'Family name.', ['Whitfield', 'Reyes', 'Natarajan'], { required: true }),
    col('username', text(100), 'Optional user name, unique across users.', ['dwhitfield', 'mreyes', 'pnatarajan']),
    col('role', { kind: 'enum', values: ['instructor'], default: 'instructor' }, 'Always instructor; blank means instructor.', [
      'instructor',
      'instructor',
      'instructor',
    ]),
    col('phone', { kind: 'phone' }, 'Any format; 10-digit numbers are formatted (555) 123-4567.', ['555-201-4410', '(555) 201-4420', '5552014430']),
    col('department', text(100), 'Department.', ['Nursing', 'Allied Health', 'Laboratory Sciences']),
    col('qualifications', text(1000), 'Degrees and licences held.', [
      'MSN, RN',
      'AAS Medical Assisting, CMA (AAMA)',
      'BS Clinical Laboratory Science, MLS(ASCP)',
    ]),
    col('hireDate', { kind: 'date' }, 'Date of hire.', ['2019-08-12', '2021-01-04', '2023-06-19']),
    col('salary', { kind: 'decimal', min: 0, max: 10_000_000 }, 'Annual salary in dollars.', ['78500', '52000', '38000']),
    col('officeLocation', text(200), 'Office.', ['Building A, Room 214', 'Building B, Room 105', 'Building C, Lab 3']),
    col('bio', text(2000), 'Short biography.', [
      'Fifteen years in medical-surgical nursing before teaching.',
      'Former clinic manager; teaches clinical and front-office skills.',
      'Hospital laboratory phlebotomy lead; teaches weekend sections.',
    ]),
    col('specializations', text(1000), 'Areas of expertise.', [
      'Medical-surgical nursing; geriatrics',
      'Clinical procedures; EHR',
      'Venipuncture; specimen processing',
    ]),
    col('certifications', text(1000), 'Certifications held.', ['BLS Instructor', 'CMA (AAMA); BLS', 'PBT (ASCP)']),
    col('employmentType', { kind: 'enum', values: EMPLOYMENT_TYPES }, 'Employment type.', ['Full-time', 'Part-time', 'Adjunct']),
    col('externalInstructorId', text(100), 'Identifier of the instructor in another system.', ['EXT-I-1001', 'EXT-I-1002', 'EXT-I-1003'], { sis: true }),
    col('employeeId', text(100), 'HR employee number, unique across instructors.', ['EMP-1001', 'EMP-1002', 'EMP-1003']),
    col('licenseNumber', text(100), 'Professional licence number.', ['RN-482913', '', '']),
    syncDate(['2026-11-02 09:00:00', '2026-11-02 09:00:00', '']),
  ],
};

export const IMPORT_TYPES: readonly ImportTypeDefinition[] = [PROGRAMS, COURSES, INSTRUCTORS, STUDENTS, SCHEDULES];

export function importType(type: UploadType): ImportTypeDefinition {
  return IMPORT_TYPES.find((t) => t.type === type)!;
}

export const isUploadType = (v: string): v is UploadType => (UPLOAD_TYPES as readonly string[]).includes(v);

/** File rules of SPEC §5, for the Templates tab. */
const FILE_RULES: readonly string[] = [
  'The first row is the header row; headers match the template exactly (snake_case spellings such as first_name and sis_student_id are accepted too).',
  `UTF-8 CSV (with or without a byte-order mark, CRLF or LF line ends), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. The wizard accepts .csv; the API also reads .xls and .xlsx.`,
  'Quoted fields may contain commas and line breaks. Empty rows are ignored.',
  "Dates are YYYY-MM-DD (or YYYY-MM-DD HH:MM:SS). Excel's month/day/year dates (8/24/2026) and serial day numbers are read too; 24/08/2026 is read as day/month/year only in a file whose dates all say so, and a date that could be either is refused when the file mixes both. The result says which format was read. E-mails must be valid; phone numbers may be in any format.",
  `Program clock hours ${PROGRAM_HOURS.min}–${PROGRAM_HOURS.max.toLocaleString('en-US')} and course hours ${COURSE_HOURS.min}–${COURSE_HOURS.max.toLocaleString('en-US')}, in steps of ${PROGRAM_HOURS.step} (outside the ${SPEC_PROGRAM_HOURS.min}–${SPEC_PROGRAM_HOURS.max} hours usually documented for a program, or over ${SPEC_COURSE_HOURS.max} for a course, the forms add a note; the value is accepted); prerequisites a JSON array such as [1,2,3] or [].`,
  'Duplicates inside a file are flagged, and every referenced record (program, course, instructor) must exist.',
  'The whole file is checked first and every problem is listed with its row and column; nothing is written unless every row is valid.',
  'Re-importing a file updates the records with the same SIS identifier instead of duplicating them.',
];

/** The template CSV's header and rows, from the sample values. */
export function templateRows(def: ImportTypeDefinition): { header: string[]; rows: string[][] } {
  const count = def.columns[0]!.samples.length;
  return {
    header: def.columns.map((c) => c.name),
    rows: Array.from({ length: count }, (_, i) => def.columns.map((c) => c.samples[i] ?? '')),
  };
}

/** What GET /api/import-columns answers (the Templates tab reads it). */
export function describeImportColumns(): ImportColumnsResponse {
  return {
    types: IMPORT_TYPES.map((t) => ({
      type: t.type,
      step: t.step,
      label: t.label,
      prerequisites: [...t.prerequisites],
      key: t.key,
      templateFile: t.templateFile,
      notes: [...t.notes],
      columns: t.columns.map((c) => ({
        name: c.name,
        required: c.required,
        sis: c.sis,
        aliases: [...c.aliases],
        rule: ruleText(c.rule),
        description: c.description,
        example: c.samples.find((s) => s !== '') ?? '',
      })),
    })),
    fileRules: [...FILE_RULES],
  };
}
