import { useQueryClient } from '@tanstack/react-query';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { ATTENDANCE_EXPORT_COLUMNS, SPEC_EXPORT_COLUMN_COUNT, type AttendanceExportFilterInput } from '../../../common/exports.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { useCourses, usePrograms, useStudents } from '../../lib/shared-queries.ts';
import { toast } from '../../lib/toast.ts';
import { useExportDownload } from '../../lib/use-export-download.ts';
import { downloadFile } from '../../lib/download.ts';
import { SIS_STATUS_KEY } from './data-management-api.ts';

/**
 * Data Export: GET /api/export/attendance with an optional date range and program, course or
 * student, saved as attendance_export_{date}.csv. "Mark as sent to the SIS" (on by default) takes
 * the same file from POST /api/sis/attendance-export, which marks its waiting records synced, so
 * the dashboard's Pending Sync drops (decision 032).
 */
export function ExportTab() {
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [programId, setProgramId] = useState('');
  const [courseId, setCourseId] = useState('');
  const [studentId, setStudentId] = useState('');
  const [markSynced, setMarkSynced] = useState(true);
  const queryClient = useQueryClient();
  const reversed = Boolean(startDate && endDate && endDate < startDate);

  const { exporting, run } = useExportDownload('Failed to export attendance data. Please try again.');
  const exportAttendance = async () => {
    const filter: AttendanceExportFilterInput = {};
    for (const [key, value] of Object.entries({ startDate, endDate, programId, courseId, studentId }))
      if (value) filter[key as keyof AttendanceExportFilterInput] = value;
    const fallbackName = `attendance_export_${new Date().toISOString().slice(0, 10)}.csv`;
    const query = new URLSearchParams(filter).toString();
    const done = await run(() =>
      markSynced
        ? downloadFile('/api/sis/attendance-export', { fallbackName, post: filter })
        : downloadFile(`/api/export/attendance${query ? `?${query}` : ''}`, { fallbackName }),
    );
    if (!done) return;
    toast({ title: 'Export Complete', description: 'Attendance data has been exported successfully.', variant: 'success' });
    // The sync counts (SIS tab, dashboard) changed.
    if (markSynced) {
      void queryClient.invalidateQueries({ queryKey: SIS_STATUS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['/api/dashboard/executive-summary'] });
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Export attendance</h2>
        <p className="mt-1 text-sm text-slate-600">A CSV of attendance records for your SIS. Leave the dates and choices empty to export everything.</p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="Start date" name="startDate" type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} hint="Optional" />
          <TextField
            label="End date"
            name="endDate"
            type="date"
            value={endDate}
            onChange={(e) => setEndDate(e.target.value)}
            hint="Optional"
            error={reversed ? 'The end date must not be before the start date' : undefined}
          />
        </div>
        <ExportFilters
          programId={programId}
          setProgramId={setProgramId}
          courseId={courseId}
          setCourseId={setCourseId}
          studentId={studentId}
          setStudentId={setStudentId}
        />
        <div className="mt-4 flex items-start gap-3 text-sm">
          <input
            id="mark-synced"
            type="checkbox"
            aria-describedby="mark-synced-hint"
            className="mt-0.5 size-4 rounded border-slate-300 text-blue-700"
            checked={markSynced}
            onChange={(e) => setMarkSynced(e.target.checked)}
          />
          <div>
            <label htmlFor="mark-synced" className="font-medium text-slate-900">
              Mark as sent to the SIS
            </label>
            <p id="mark-synced-hint" className="text-slate-600">
              Records in the file that were waiting become Synced, and Pending Sync on the dashboard drops. Turn off for a copy you are not uploading to the
              SIS.
            </p>
          </div>
        </div>
        <Button className="mt-5" onClick={() => void exportAttendance()} disabled={exporting || reversed}>
          {exporting ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
          {exporting ? 'Exporting...' : 'Export Attendance'}
        </Button>
      </Card>
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Columns in the file</h2>
        <p className="mt-1 text-sm text-slate-600">
          The SIS columns, then the clock-hour details career schools report (minutes scheduled and attended, overrides and how each record was taken).
        </p>
        <ol className="mt-3 grid list-decimal gap-1 pl-5 text-sm text-slate-700 sm:grid-cols-2">
          {ATTENDANCE_EXPORT_COLUMNS.map((c, i) => (
            <li key={c}>
              <code className="text-xs">{c}</code>
              {i >= SPEC_EXPORT_COLUMN_COUNT ? <span className="sr-only"> (clock-hour detail)</span> : null}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

type FilterProps = {
  programId: string;
  setProgramId: (v: string) => void;
  courseId: string;
  setCourseId: (v: string) => void;
  studentId: string;
  setStudentId: (v: string) => void;
};

/** Program, course and student choices of the export; empty is "all". */
function ExportFilters({ programId, setProgramId, courseId, setCourseId, studentId, setStudentId }: FilterProps) {
  const programs = usePrograms();
  const courses = useCourses();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 300);
  const students = useStudents({ search: debounced.trim(), pageSize: 20, sort: 'name', order: 'asc' });
  // Courses of the chosen program only; a chosen course stays offered.
  const courseChoices = (courses.data ?? []).filter((c) => !programId || String(c.programId) === programId || String(c.id) === courseId);
  const studentChoices = students.data?.items ?? [];
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Program"
        name="programId"
        value={programId}
        onChange={(e) => setProgramId(e.target.value)}
        hint={programs.isError ? 'Programs could not be loaded.' : 'Optional'}
      >
        <option value="">All programs</option>
        {(programs.data ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.programName}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Course"
        name="courseId"
        value={courseId}
        onChange={(e) => setCourseId(e.target.value)}
        hint={courses.isError ? 'Courses could not be loaded.' : 'Optional'}
      >
        <option value="">All courses</option>
        {courseChoices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.courseCode} — {c.courseName}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-2 sm:col-span-2 sm:grid-cols-2 sm:items-end">
        <SearchInput label="Find a student for the export" placeholder="Find a student: name or ID" value={search} onChange={setSearch} />
        <SelectField label="Student" name="studentId" value={studentId} onChange={(e) => setStudentId(e.target.value)} hint="Optional">
          <option value="">All students</option>
          {studentId && !studentChoices.some((st) => String(st.id) === studentId) ? <option value={studentId}>Student #{studentId}</option> : null}
          {studentChoices.map((st) => (
            <option key={st.id} value={st.id}>
              {st.lastName}, {st.firstName}
              {st.sisStudentId ? ` (${st.sisStudentId})` : ''}
            </option>
          ))}
        </SelectField>
      </div>
    </div>
  );
}
