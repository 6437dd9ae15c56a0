import { ArrowLeft, Printer } from 'lucide-react';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AttendanceRow } from '../../../common/attendance.ts';
import { ATTENDANCE_STATUS_LABELS } from '../../../common/constants.ts';
import { cohortLabel, type Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { LoadingPanel } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { formatClockRange, formatDate } from '../../lib/format.ts';
import { serverOffset } from '../../lib/server-clock.ts';
import { useSchedules, useSettings } from '../../lib/shared-queries.ts';
import { schoolClock } from '../../lib/zoned-time.ts';
import { useSheetMeeting, useSheetSchedule } from './print-sheets-api.ts';

/** Which sheet: blank columns to fill in by hand, or the roster with what was recorded. */
type Variant = 'sign-in' | 'roster';
const TITLES: Record<Variant, string> = { 'sign-in': 'Sign-in sheet', roster: 'Class roster' };
/** Blank lines under the roster, for students who come without being on it. */
const WALK_IN_LINES = 3;

/** Today on the school's clock (the server's time, in the school's time zone). */
function schoolToday(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now() + serverOffset());
}

/**
 * The paper fallback for a class meeting (decision 032), at /attendance/sheet?scheduleId=&date=:
 * course, instructor, date, time and room, then every rostered student with columns to sign in and
 * out; or, once the meeting has records, the roster with each recorded status. The controls do not
 * print; the sheet fills the page.
 */
export function SignInSheetPage() {
  const [params, setParams] = useSearchParams();
  const settings = useSettings();
  const timeZone = settings.data?.attendance.timeZone ?? 'UTC';
  const schedules = useSchedules();
  const scheduleId = Number(params.get('scheduleId')) || null;
  const date = params.get('date') || (settings.data ? schoolToday(timeZone) : '');
  const schedule = useSheetSchedule(scheduleId);
  const meeting = useSheetMeeting(scheduleId, date);
  const rows = meeting.data ?? [];
  const hasRecords = rows.some((r) => r.status != null);
  const asked = params.get('variant');
  const variant: Variant = asked === 'sign-in' || asked === 'roster' ? asked : hasRecords ? 'roster' : 'sign-in';
  useDocumentTitle(TITLES[variant]);

  const setParam = (key: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(key, value);
        else p.delete(key);
        return p;
      },
      { replace: true },
    );

  return (
    <>
      <div className="mb-6 flex flex-col gap-4 print:hidden">
        <Link to={scheduleId ? `/attendance?schedule=${scheduleId}` : '/attendance'} className={buttonClasses('ghost', 'sm', 'self-start')}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to Take Attendance
        </Link>
        <Card className="grid gap-4 p-5 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end">
          <SelectField label="Class" name="scheduleId" value={scheduleId ?? ''} onChange={(e) => setParam('scheduleId', e.target.value)}>
            <option value="" disabled>
              {schedules.isPending ? 'Loading classes…' : 'Choose a class'}
            </option>
            {(schedules.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.courseCode} — {s.courseName} (cohort {cohortLabel(s)})
              </option>
            ))}
          </SelectField>
          <TextField label="Date" name="date" type="date" value={date} onChange={(e) => setParam('date', e.target.value)} />
          <SelectField
            label="Sheet"
            name="variant"
            value={variant}
            onChange={(e) => setParam('variant', e.target.value)}
            hint={hasRecords ? undefined : 'No records for this meeting yet'}
          >
            <option value="sign-in">Sign-in sheet (blank)</option>
            <option value="roster" disabled={!hasRecords}>
              Roster with recorded status
            </option>
          </SelectField>
          <Button onClick={() => window.print()} disabled={!schedule.data || !meeting.data} icon={Printer}>
            Print
          </Button>
        </Card>
      </div>
      {scheduleId == null ? (
        <Alert>Choose a class to print its sheet.</Alert>
      ) : schedule.isError || meeting.isError ? (
        <Alert>This class could not be loaded. It may belong to another instructor, or the date may not be valid.</Alert>
      ) : !schedule.data || !meeting.data ? (
        <LoadingPanel />
      ) : (
        <Sheet schedule={schedule.data} date={date} rows={rows} variant={variant} timeZone={timeZone} />
      )}
    </>
  );
}

function Sheet({ schedule, date, rows, variant, timeZone }: { schedule: Schedule; date: string; rows: AttendanceRow[]; variant: Variant; timeZone: string }) {
  const headingId = useId();
  const facts: [string, string][] = [
    ['Course', `${schedule.courseCode} — ${schedule.courseName}`],
    ['Instructor', schedule.instructorName ?? 'Not assigned'],
    ['Date', formatDate(date)],
    ['Time', formatClockRange(schedule.startTime, schedule.endTime)],
    ['Room', schedule.roomNumber ?? '—'],
    ['Cohort / term', `${cohortLabel(schedule)} / ${schedule.termNumber}`],
  ];
  const time = (iso: string | null) => (iso ? schoolClock(iso, timeZone) : '');
  return (
    <article
      aria-labelledby={headingId}
      data-print-sheet
      className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 print:p-0 print:shadow-none print:ring-0"
    >
      <h1 id={headingId} className="text-2xl font-bold text-slate-900">
        {TITLES[variant]}
      </h1>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="font-semibold text-slate-600">{term}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <table className="mt-6 w-full border-collapse text-left text-sm">
        <caption className="sr-only">
          {TITLES[variant]}: {rows.length} rostered students
        </caption>
        <thead>
          <tr className="border-b-2 border-slate-400">
            <Th className="w-8">#</Th>
            <Th>Student</Th>
            <Th>Student ID</Th>
            {variant === 'roster' ? <Th>Status</Th> : null}
            <Th className="w-24">Time in</Th>
            <Th className="w-24">Time out</Th>
            <Th className="w-1/4">{variant === 'roster' ? 'Notes' : 'Signature'}</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.studentId} className="h-11 border-b border-slate-300">
              <td className="px-2 text-slate-600 tabular-nums">{i + 1}</td>
              <th scope="row" className="px-2 font-medium text-slate-900">
                {r.lastName}, {r.firstName}
              </th>
              <td className="px-2 tabular-nums">{r.sisStudentId ?? r.studentId}</td>
              {variant === 'roster' ? <td className="px-2">{r.status ? ATTENDANCE_STATUS_LABELS[r.status] : 'No record'}</td> : null}
              <td className="px-2 tabular-nums">{variant === 'roster' ? time(r.scanInTime) : ''}</td>
              <td className="px-2 tabular-nums">{variant === 'roster' ? time(r.scanOutTime) : ''}</td>
              <td className="px-2" />
            </tr>
          ))}
          {variant === 'sign-in'
            ? Array.from({ length: WALK_IN_LINES }, (_, i) => (
                <tr key={`walk-in-${i}`} className="h-11 border-b border-slate-300">
                  <td className="px-2 text-slate-600 tabular-nums">{rows.length + i + 1}</td>
                  <td className="px-2 text-xs text-slate-500">{i === 0 ? 'Not on the roster: name' : ''}</td>
                  <td />
                  <td />
                  <td />
                  <td />
                </tr>
              ))
            : null}
        </tbody>
      </table>
      {rows.length === 0 ? <p className="mt-4 text-sm text-slate-600">No students are on this class&apos;s roster.</p> : null}
      <p className="mt-8 grid grid-cols-[auto_minmax(0,1fr)_auto_10rem] items-end gap-3 text-sm text-slate-700">
        <span>Instructor signature</span>
        <span aria-hidden="true" className="border-b border-slate-500" />
        <span>Date</span>
        <span aria-hidden="true" className="border-b border-slate-500" />
      </p>
    </article>
  );
}

function Th({ children, className }: { children: string; className?: string }) {
  return (
    <th scope="col" className={cn('px-2 py-2 text-xs font-semibold tracking-wide text-slate-700 uppercase', className)}>
      {children}
    </th>
  );
}
