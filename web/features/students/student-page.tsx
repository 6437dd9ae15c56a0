import { ArrowLeft, Clock, History, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { Student } from '../../../common/students.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs, type PageTab } from '../../components/ui/page-tabs.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { studentStatusLabel, studentStatusTone } from '../../components/student-status.ts';
import { ApiError } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { formatDate } from '../../lib/format.ts';
import { SCREEN_ACCESS } from '../../lib/screen-access.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useTabParam } from '../../lib/use-tab-param.ts';
import { ExceptionSummary } from './exception-summary.tsx';
import { HistoryTab } from './history-tab.tsx';
import { HoursTab } from './hours-tab.tsx';
import { studentName } from './student-columns.tsx';
import { useStudent } from './students-api.ts';

const TABS: readonly PageTab<'hours' | 'history'>[] = [
  { value: 'hours', label: 'Hours', icon: Clock },
  { value: 'history', label: 'History', icon: History },
];

/**
 * /students/:id: a student's profile, their clock-hour ledger (Hours) and their attendance records
 * with corrections (History). Staff who see the Students screen reach any student; instructors
 * only students on their own rosters (the server answers 404 or 403 for the others).
 */
export function StudentPage() {
  const { id: raw } = useParams();
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) return <Unavailable kind="not-found" />;
  return <StudentScreen key={id} id={id} />;
}

function StudentScreen({ id }: { id: number }) {
  const student = useStudent(id);
  const [tab, setTab] = useTabParam(TABS);

  if (student.isLoading) {
    return (
      <div role="status" className="flex items-center gap-2 py-16 text-sm text-slate-600">
        <Spinner className="size-5 text-blue-700" /> Loading student…
      </div>
    );
  }
  if (student.isError || !student.data) return <Unavailable kind={reasonOf(student.error)} />;

  return (
    <>
      <BackLink />
      <PageHeader title={studentName(student.data)} subtitle="Student record, clock hours and attendance history" />
      <Profile student={student.data} />
      <ExceptionSummary studentId={student.data.id} />
      <PageTabs label="Student views" tabs={TABS} value={tab} onValueChange={setTab} className="mt-8">
        <PageTabPanel value="hours">
          <HoursTab student={student.data} />
        </PageTabPanel>
        <PageTabPanel value="history">
          <HistoryTab student={student.data} />
        </PageTabPanel>
      </PageTabs>
    </>
  );
}

/** Back to the Students list, for the roles that have it (instructors come from their rosters). */
function BackLink() {
  const user = useSignedInUser();
  if (!SCREEN_ACCESS.students.allows(user.role)) return null;
  return (
    <Link to="/students" className={buttonClasses('ghost', 'sm', '-ml-3 mb-3')}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Students
    </Link>
  );
}

function Profile({ student }: { student: Student }) {
  const fields: [string, ReactNode][] = [
    ['Student ID', <span className="tabular-nums">{student.id}</span>],
    ['SIS ID', student.sisStudentId ? <span className="font-mono text-xs">{student.sisStudentId}</span> : null],
    ['Program', student.programName],
    ['Status', <Badge tone={studentStatusTone(student.status)}>{studentStatusLabel(student.status)}</Badge>],
    ['Enrollment date', student.enrollmentDate ? formatDate(student.enrollmentDate, 'medium') : null],
    ['Last date of attendance', student.lastDateOfAttendance ? formatDate(student.lastDateOfAttendance, 'medium') : null],
    ['E-mail', student.email ? <span className="break-all">{student.email}</span> : null],
    ['Phone', student.phone],
    ...(student.ssnMasked !== undefined
      ? ([['SSN', student.ssnMasked ? <span className="font-mono text-xs">{student.ssnMasked}</span> : null]] as [string, ReactNode][])
      : []),
  ];
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="sr-only">Profile</h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-4 min-[480px]:grid-cols-2 lg:grid-cols-4">
        {fields.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
            <dd className="mt-1 text-sm text-slate-900">{value ?? <span className="text-slate-500">—</span>}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

type Reason = 'not-found' | 'forbidden' | 'failed';

function reasonOf(error: unknown): Reason {
  if (error instanceof ApiError && error.status === 404) return 'not-found';
  if (error instanceof ApiError && error.status === 403) return 'forbidden';
  return 'failed';
}

const UNAVAILABLE: Record<Reason, { title: string; text: string }> = {
  'not-found': {
    title: 'Student not found',
    text: 'There is no student with this number, or it is not one you can see. Instructors see the students on their own class rosters.',
  },
  forbidden: { title: 'Not one of your students', text: 'You can see the hours and records of the students on your own class rosters only.' },
  failed: { title: 'The student could not be loaded', text: 'Reload the page to try again.' },
};

function Unavailable({ kind }: { kind: Reason }) {
  const { title, text } = UNAVAILABLE[kind];
  useDocumentTitle(title);
  return (
    <>
      <BackLink />
      <h1 className="sr-only">{title}</h1>
      <EmptyState icon={UserX} title={title}>
        {text}
      </EmptyState>
    </>
  );
}
