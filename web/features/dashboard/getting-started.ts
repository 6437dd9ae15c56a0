import type { GettingStarted } from '../../../common/dashboard.ts';

type GettingStartedStep = { key: string; title: string; detail: string; done: boolean; links: { to: string; label: string }[] };

/** The checklist's steps, each ticked from the school's real rows. */
export function gettingStartedSteps(g: GettingStarted): GettingStartedStep[] {
  return [
    {
      key: 'school-name',
      title: 'Name your school',
      detail: 'Time cards, the monthly hours report and e-mails to students print it.',
      done: g.schoolNamed,
      links: [{ to: '/settings?tab=system', label: 'Settings › System' }],
    },
    {
      key: 'time-zone',
      title: 'School time zone',
      detail: `Class dates and late marks use ${g.timeZone.replaceAll('_', ' ')}.`,
      done: g.timeZoneChosen,
      links: [{ to: '/settings', label: 'Settings' }],
    },
    {
      key: 'programs',
      title: 'Programs and courses',
      detail: 'Add the programs you teach and their courses.',
      done: g.programs > 0 && g.courses > 0,
      links: [{ to: '/courses', label: 'Courses' }],
    },
    {
      key: 'people',
      title: 'Import or add people',
      detail: 'Bring in students from a spreadsheet or add them one by one, and add your instructors.',
      done: g.students > 0 && g.instructors > 0,
      links: [
        { to: '/data-management', label: 'Data Management' },
        { to: '/students', label: 'Students' },
        { to: '/users', label: 'User Management' },
      ],
    },
    {
      key: 'schedule',
      title: 'First schedule',
      detail: 'Give a course its day, times, room and instructor.',
      done: g.schedules > 0,
      links: [{ to: '/schedules', label: 'Schedules' }],
    },
    {
      key: 'check-in',
      title: 'Try a check-in',
      detail: 'Start a QR session and check in from a phone.',
      done: g.attendanceRecords > 0,
      links: [{ to: '/attendance', label: 'Take Attendance' }],
    },
  ];
}
