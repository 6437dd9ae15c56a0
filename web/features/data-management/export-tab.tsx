import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { ATTENDANCE_EXPORT_COLUMNS, SPEC_EXPORT_COLUMN_COUNT } from '../../../common/import-columns.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { toast } from '../../lib/toast.ts';
import { handleUnauthorized } from '../../lib/unauthorized.ts';
import { downloadFile } from '../../lib/download.ts';

/** Data Export: GET /api/export/attendance with an optional date range, saved as attendance_export_{date}.csv. */
export function ExportTab() {
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [exporting, setExporting] = useState(false);
  const reversed = Boolean(startDate && endDate && endDate < startDate);

  const exportAttendance = async () => {
    setExporting(true);
    try {
      const q = new URLSearchParams();
      if (startDate) q.set('startDate', startDate);
      if (endDate) q.set('endDate', endDate);
      const query = q.toString();
      await downloadFile(`/api/export/attendance${query ? `?${query}` : ''}`, { fallbackName: `attendance_export_${new Date().toISOString().slice(0, 10)}.csv` });
      toast({ title: 'Export Complete', description: 'Attendance data has been exported successfully.', variant: 'success' });
    } catch (e) {
      // SPEC §8: a 401 is the Unauthorized toast and a redirect to sign in; anything else Export Failed.
      if (!handleUnauthorized(e)) toast({ title: 'Export Failed', description: 'Failed to export attendance data. Please try again.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Export attendance</h2>
        <p className="mt-1 text-sm text-slate-600">A CSV of attendance records for your SIS. Leave the dates empty to export everything.</p>
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
