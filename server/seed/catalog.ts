// The fixed part of the demo school: programs, courses, staff, cohorts and the weekly timetable.
// Everything random (students, attendance) is generated from these in demo-school.ts.
import type { Role } from '../../common/roles.ts';

const DEMO_DOMAIN = 'demo.muster.school';
export const STUDENT_DOMAIN = 'student.example.edu';

export type ProgramSeed = {
  key: 'PN' | 'MA';
  sisProgramId: string;
  programName: string;
  programCode: string;
  // The database allows 50–350 hours (SPEC §9), far below a real PN diploma (~1,500 h).
  durationHours: number;
  credentialType: 'Certificate' | 'Diploma';
  description: string;
  startDate: string;
  accreditationBody: string;
  programDirector: string;
  tuitionCost: number;
  capacity: number;
  campusLocation: string;
  regulatoryCode: string;
};

export const PROGRAMS: ProgramSeed[] = [
  {
    key: 'PN',
    sisProgramId: 'PRG-PN-01',
    programName: 'Practical Nursing',
    programCode: 'PN',
    durationHours: 320,
    credentialType: 'Diploma',
    description: 'Prepares graduates for the NCLEX-PN and entry-level practice as Licensed Practical Nurses.',
    startDate: '2019-08-19',
    accreditationBody: 'ACEN',
    programDirector: 'Dr. Elaine Foster, DNP, RN',
    tuitionCost: 18_950,
    capacity: 64,
    campusLocation: 'Main Campus',
    regulatoryCode: 'BON-PN-0417',
  },
  {
    key: 'MA',
    sisProgramId: 'PRG-MA-01',
    programName: 'Medical Assistant',
    programCode: 'MA',
    durationHours: 300,
    credentialType: 'Certificate',
    description: 'Clinical and administrative medical assisting; graduates sit for the CMA (AAMA) or RMA exam.',
    startDate: '2021-01-11',
    accreditationBody: 'ABHES',
    programDirector: 'Priya Raman, CMA (AAMA)',
    tuitionCost: 13_400,
    capacity: 60,
    campusLocation: 'North Campus',
    regulatoryCode: 'TWC-MA-1182',
  },
];

type CourseSeed = {
  program: ProgramSeed['key'];
  courseCode: string;
  courseName: string;
  clockHours: number;
  lectureHours: number;
  category: 'Core' | 'Clinical' | 'Elective';
  description: string;
  textbooks: string;
  passingGrade: number;
  credits: number;
  prerequisites: string[];
};

// Clock hours of each program's courses add up to the program's duration.
export const COURSES: CourseSeed[] = [
  {
    program: 'PN',
    courseCode: 'PN101',
    courseName: 'Fundamentals of Nursing',
    clockHours: 80,
    lectureHours: 56,
    category: 'Core',
    description: 'Nursing process, patient safety, infection control, vital signs and basic care skills.',
    textbooks: 'Williams, Fundamental Concepts and Skills for Nursing, 6th ed.',
    passingGrade: 78,
    credits: 5,
    prerequisites: [],
  },
  {
    program: 'PN',
    courseCode: 'PN110',
    courseName: 'Anatomy and Physiology',
    clockHours: 60,
    lectureHours: 48,
    category: 'Core',
    description: 'Structure and function of the body systems with an emphasis on clinical relevance.',
    textbooks: 'Herlihy, The Human Body in Health and Illness, 7th ed.',
    passingGrade: 75,
    credits: 4,
    prerequisites: [],
  },
  {
    program: 'PN',
    courseCode: 'PN120',
    courseName: 'Pharmacology for Practical Nurses',
    clockHours: 60,
    lectureHours: 50,
    category: 'Core',
    description: 'Drug classes, dosage calculation and safe medication administration.',
    textbooks: 'Clayton, Basic Pharmacology for Nurses, 19th ed.',
    passingGrade: 80,
    credits: 4,
    prerequisites: ['PN110'],
  },
  {
    program: 'PN',
    courseCode: 'PN130',
    courseName: 'Medical-Surgical Nursing I',
    clockHours: 70,
    lectureHours: 40,
    category: 'Clinical',
    description: 'Care of adults with common medical-surgical conditions, with supervised clinical hours.',
    textbooks: 'Linton, Medical-Surgical Nursing, 8th ed.',
    passingGrade: 78,
    credits: 4.5,
    prerequisites: ['PN101', 'PN110'],
  },
  {
    program: 'PN',
    courseCode: 'PN140',
    courseName: 'Gerontology and Long-Term Care',
    clockHours: 50,
    lectureHours: 30,
    category: 'Elective',
    description: 'Aging, chronic illness and care in long-term and home settings.',
    textbooks: 'Eliopoulos, Gerontological Nursing, 10th ed.',
    passingGrade: 75,
    credits: 3,
    prerequisites: [],
  },
  {
    program: 'MA',
    courseCode: 'MA101',
    courseName: 'Medical Terminology',
    clockHours: 60,
    lectureHours: 60,
    category: 'Core',
    description: 'Word parts, abbreviations and terminology of the body systems.',
    textbooks: 'Chabner, The Language of Medicine, 12th ed.',
    passingGrade: 75,
    credits: 3,
    prerequisites: [],
  },
  {
    program: 'MA',
    courseCode: 'MA110',
    courseName: 'Clinical Procedures',
    clockHours: 90,
    lectureHours: 40,
    category: 'Clinical',
    description: 'Patient intake, vital signs, injections, EKG and assisting with examinations.',
    textbooks: 'Bonewit-West, Clinical Procedures for Medical Assistants, 11th ed.',
    passingGrade: 80,
    credits: 5,
    prerequisites: ['MA101'],
  },
  {
    program: 'MA',
    courseCode: 'MA120',
    courseName: 'Medical Office Administration',
    clockHours: 70,
    lectureHours: 50,
    category: 'Core',
    description: 'Scheduling, electronic health records, insurance and coding basics.',
    textbooks: 'Kinn, The Administrative Medical Assistant, 15th ed.',
    passingGrade: 75,
    credits: 4,
    prerequisites: [],
  },
  {
    program: 'MA',
    courseCode: 'MA130',
    courseName: 'Phlebotomy',
    clockHours: 80,
    lectureHours: 30,
    category: 'Clinical',
    description: 'Venipuncture and capillary collection, specimen handling and safety.',
    textbooks: 'McCall, Phlebotomy Essentials, 8th ed.',
    passingGrade: 80,
    credits: 4,
    prerequisites: ['MA101'],
  },
];

type StaffSeed = {
  key: string;
  role: Role;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  /** Staff with an account get a generated password; the others sign in once an admin sends a link. */
  login: boolean;
  profile?: {
    department: string;
    employmentType: 'Full-time' | 'Part-time' | 'Adjunct';
    hireDate: string;
    qualifications: string;
    specializations: string;
    certifications: string;
    licenseNumber: string;
    officeLocation: string;
    salary: number;
    phone: string;
    bio: string;
  };
};

export const STAFF: StaffSeed[] = [
  { key: 'admin', role: 'super_admin', email: `admin@${DEMO_DOMAIN}`, username: 'admin', firstName: 'Dana', lastName: 'Whitfield', login: true },
  { key: 'itadmin', role: 'it_admin', email: `itadmin@${DEMO_DOMAIN}`, username: 'itadmin', firstName: 'Kevin', lastName: 'Park', login: true },
  { key: 'support', role: 'support_staff', email: `support@${DEMO_DOMAIN}`, username: 'support', firstName: 'Tasha', lastName: 'Brooks', login: true },
  {
    key: 'okafor',
    role: 'instructor',
    email: `instructor@${DEMO_DOMAIN}`,
    username: 'aokafor',
    firstName: 'Angela',
    lastName: 'Okafor',
    login: true,
    profile: {
      department: 'Nursing',
      employmentType: 'Full-time',
      hireDate: '2018-07-23',
      qualifications: 'MSN, Nursing Education',
      specializations: 'Fundamentals, Medical-Surgical Nursing',
      certifications: 'RN, CNE, BLS Instructor',
      licenseNumber: 'RN-884213',
      officeLocation: 'Main Campus, Room 214',
      salary: 78_500,
      phone: '(512) 555-0142',
      bio: 'Twelve years of med-surg nursing before teaching; leads the first-term skills lab.',
    },
  },
  {
    key: 'nguyen',
    role: 'instructor',
    email: `david.nguyen@${DEMO_DOMAIN}`,
    username: 'dnguyen',
    firstName: 'David',
    lastName: 'Nguyen',
    login: false,
    profile: {
      department: 'Nursing',
      employmentType: 'Part-time',
      hireDate: '2021-01-04',
      qualifications: 'BSN',
      specializations: 'Pharmacology, Anatomy and Physiology, Gerontology',
      certifications: 'RN, ACLS',
      licenseNumber: 'RN-912077',
      officeLocation: 'Main Campus, Room 210',
      salary: 41_000,
      phone: '(512) 555-0157',
      bio: 'Works nights in a long-term acute care hospital and teaches theory courses by day.',
    },
  },
  {
    key: 'raman',
    role: 'instructor',
    email: `priya.raman@${DEMO_DOMAIN}`,
    username: 'praman',
    firstName: 'Priya',
    lastName: 'Raman',
    login: false,
    profile: {
      department: 'Allied Health',
      employmentType: 'Full-time',
      hireDate: '2020-09-14',
      qualifications: 'BS, Health Administration',
      specializations: 'Clinical Procedures, Medical Terminology',
      certifications: 'CMA (AAMA), BLS',
      licenseNumber: 'CMA-2004471',
      officeLocation: 'North Campus, Room 105',
      salary: 62_000,
      phone: '(512) 555-0163',
      bio: 'Medical assistant program director; ten years in family-practice clinics.',
    },
  },
  {
    key: 'bennett',
    role: 'instructor',
    email: `marcus.bennett@${DEMO_DOMAIN}`,
    username: 'mbennett',
    firstName: 'Marcus',
    lastName: 'Bennett',
    login: false,
    profile: {
      department: 'Allied Health',
      employmentType: 'Adjunct',
      hireDate: '2023-02-27',
      qualifications: 'AAS, Medical Laboratory Technology',
      specializations: 'Phlebotomy',
      certifications: 'RMA, CPT (NHA)',
      licenseNumber: 'CPT-5531908',
      officeLocation: 'North Campus, Adjunct Office',
      salary: 24_000,
      phone: '(512) 555-0178',
      bio: 'Hospital phlebotomy supervisor who teaches one evening and one afternoon section.',
    },
  },
];

export type CohortSeed = {
  key: string;
  program: ProgramSeed['key'];
  cohortNumber: number;
  termNumber: number;
  size: number;
  withdrawn: number;
  onLeave: number;
};

// Two cohorts per program: one in its first term, one a term ahead.
export const COHORTS: CohortSeed[] = [
  { key: 'PN6', program: 'PN', cohortNumber: 6, termNumber: 2, size: 30, withdrawn: 2, onLeave: 1 },
  { key: 'PN7', program: 'PN', cohortNumber: 7, termNumber: 1, size: 32, withdrawn: 2, onLeave: 1 },
  { key: 'MA3', program: 'MA', cohortNumber: 3, termNumber: 2, size: 28, withdrawn: 2, onLeave: 1 },
  { key: 'MA4', program: 'MA', cohortNumber: 4, termNumber: 1, size: 30, withdrawn: 2, onLeave: 1 },
];

type ScheduleSeed = {
  course: string;
  cohort: string;
  instructor: string;
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  roomNumber: string;
  room: string;
};

// No cohort, instructor or room is booked twice at the same time.
export const SCHEDULES: ScheduleSeed[] = [
  { course: 'PN101', cohort: 'PN7', instructor: 'okafor', dayOfWeek: 1, startTime: '08:00', endTime: '12:00', roomNumber: '112', room: 'Skills Lab A' },
  { course: 'PN101', cohort: 'PN7', instructor: 'okafor', dayOfWeek: 3, startTime: '08:00', endTime: '12:00', roomNumber: '112', room: 'Skills Lab A' },
  { course: 'PN110', cohort: 'PN7', instructor: 'nguyen', dayOfWeek: 2, startTime: '08:00', endTime: '12:00', roomNumber: '204', room: 'Lecture Hall 2' },
  { course: 'PN110', cohort: 'PN7', instructor: 'nguyen', dayOfWeek: 4, startTime: '13:00', endTime: '16:30', roomNumber: '204', room: 'Lecture Hall 2' },
  { course: 'PN120', cohort: 'PN6', instructor: 'nguyen', dayOfWeek: 1, startTime: '13:00', endTime: '16:30', roomNumber: '206', room: 'Classroom 206' },
  { course: 'PN130', cohort: 'PN6', instructor: 'okafor', dayOfWeek: 2, startTime: '13:00', endTime: '16:30', roomNumber: '114', room: 'Skills Lab B' },
  { course: 'PN130', cohort: 'PN6', instructor: 'okafor', dayOfWeek: 4, startTime: '08:00', endTime: '12:00', roomNumber: '114', room: 'Skills Lab B' },
  { course: 'PN140', cohort: 'PN6', instructor: 'nguyen', dayOfWeek: 5, startTime: '08:00', endTime: '12:00', roomNumber: '206', room: 'Classroom 206' },
  { course: 'MA101', cohort: 'MA4', instructor: 'raman', dayOfWeek: 1, startTime: '08:00', endTime: '12:00', roomNumber: 'N101', room: 'North Classroom 1' },
  { course: 'MA120', cohort: 'MA4', instructor: 'raman', dayOfWeek: 3, startTime: '13:00', endTime: '16:30', roomNumber: 'N103', room: 'Computer Lab' },
  { course: 'MA110', cohort: 'MA3', instructor: 'raman', dayOfWeek: 2, startTime: '08:00', endTime: '12:00', roomNumber: 'N110', room: 'Clinical Lab' },
  { course: 'MA130', cohort: 'MA3', instructor: 'bennett', dayOfWeek: 4, startTime: '13:00', endTime: '16:30', roomNumber: 'N110', room: 'Clinical Lab' },
];

export const FIRST_NAMES = [
  'Aaliyah',
  'Adrian',
  'Aisha',
  'Alejandro',
  'Amara',
  'Andre',
  'Ana',
  'Brianna',
  'Carlos',
  'Chloe',
  'Daniela',
  'Darius',
  'Destiny',
  'Diego',
  'Emily',
  'Emmanuel',
  'Esperanza',
  'Fatima',
  'Gabriel',
  'Grace',
  'Hannah',
  'Hector',
  'Imani',
  'Isabel',
  'Jamal',
  'Jasmine',
  'Javier',
  'Jessica',
  'Jordan',
  'Joseph',
  'Kayla',
  'Keisha',
  'Kenji',
  'Layla',
  'Linh',
  'Lucia',
  'Malik',
  'Maria',
  'Mariana',
  'Megan',
  'Mei',
  'Michael',
  'Minh',
  'Nadia',
  'Naomi',
  'Nia',
  'Omar',
  'Priya',
  'Rafael',
  'Rosa',
  'Samantha',
  'Sarah',
  'Sofia',
  'Tamika',
  'Tyler',
  'Valeria',
  'Victor',
  'Wei',
  'Xavier',
  'Yesenia',
  'Zainab',
  'Brandon',
  'Courtney',
  'Ashley',
  'Deshawn',
  'Elena',
  'Farah',
  'Thanh',
  'Ruth',
  'Kevin',
];

export const LAST_NAMES = [
  'Adeyemi',
  'Alvarez',
  'Anderson',
  'Baker',
  'Banerjee',
  'Castillo',
  'Chen',
  'Clark',
  'Cruz',
  'Davis',
  'Delgado',
  'Diaz',
  'Edwards',
  'Flores',
  'Garcia',
  'Gomez',
  'Gonzalez',
  'Green',
  'Gutierrez',
  'Hall',
  'Harris',
  'Hernandez',
  'Hill',
  'Huang',
  'Jackson',
  'Johnson',
  'Kim',
  'Kowalski',
  'Le',
  'Lee',
  'Lopez',
  'Martinez',
  'Mendoza',
  'Mitchell',
  'Moore',
  'Morales',
  'Nguyen',
  'Ortiz',
  'Patel',
  'Perez',
  'Pham',
  'Ramirez',
  'Reyes',
  'Rivera',
  'Robinson',
  'Rodriguez',
  'Sanchez',
  'Scott',
  'Shah',
  'Singh',
  'Smith',
  'Thomas',
  'Thompson',
  'Torres',
  'Tran',
  'Vargas',
  'Walker',
  'Washington',
  'Williams',
  'Wright',
  'Yang',
  'Young',
  "O'Connor",
  'Abdi',
  'Hussein',
  'Mensah',
  'Okeke',
  'Santos',
  'Vu',
  'Begay',
];

export const STREETS = ['Oak St', 'Riverside Dr', 'Lamar Blvd', 'Cedar Ln', 'Burnet Rd', 'Pecan St', 'Maple Ave', 'Airport Blvd', 'Elm St', 'Manor Rd'];
export const CITIES = ['Austin, TX 78741', 'Austin, TX 78753', 'Round Rock, TX 78664', 'Pflugerville, TX 78660', 'Del Valle, TX 78617', 'Manor, TX 78653'];
export const FINANCIAL_AID = [
  'Pell Grant',
  'Pell Grant, Direct Subsidized Loan',
  'Direct Unsubsidized Loan',
  'WIOA',
  'Self-pay',
  'Employer tuition assistance',
];
export const RELATIONS = ['mother', 'father', 'spouse', 'sister', 'brother', 'partner', 'aunt', 'grandmother'];

export const EXCUSE_REASONS = [
  'Medical appointment, doctor\u2019s note on file',
  'Jury duty (summons provided)',
  'Bereavement leave approved by program director',
  'Child\u2019s daycare closed; documented family emergency',
  'Ill with fever; note from urgent care',
];

export const PRESENT_OVERRIDE_REASONS = [
  'Phone battery died; instructor confirmed attendance in class',
  'Could not scan: QR display failed, attendance taken by roll call',
  'Forgot to check in; present at skills check-off',
];

export const LATE_OVERRIDE_REASONS = [
  'Clinical site shuttle delayed (documented by transport office)',
  'Arrived on time; waited at front desk for badge replacement',
];
