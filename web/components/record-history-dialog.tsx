import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { attendanceHistorySchema, type RecordValues } from '../../common/hours.ts';
import { apiParse } from '../lib/api.ts';
import { Alert } from './ui/alert.tsx';
import { Modal } from './ui/dialog.tsx';
import { Spinner } from './ui/spinner.tsx';
import { formatDateTime, formatHm } from '../lib/format.ts';
import { RecordStatusBadge, SOURCE_LABELS, usePunchFormat } from './record-format.tsx';

type Field = { key: keyof RecordValues; label: string; show: (v: RecordValues) => ReactNode; text: (v: RecordValues) => string };

/** The record's fields as the dialog lists them; times on the school's clock. */
const fieldsWith = (formatPunch: (v: string | null) => string): Field[] => [
  { key: 'status', label: 'Status', show: (v) => <RecordStatusBadge status={v.status} />, text: (v) => v.status },
  { key: 'scanInTime', label: 'In', show: (v) => formatPunch(v.scanInTime), text: (v) => v.scanInTime ?? '' },
  { key: 'scanOutTime', label: 'Out', show: (v) => formatPunch(v.scanOutTime), text: (v) => v.scanOutTime ?? '' },
  {
    key: 'minutesAttended',
    label: 'Hours',
    show: (v) => (v.minutesAttended == null ? '—' : formatHm(v.minutesAttended)),
    text: (v) => String(v.minutesAttended ?? ''),
  },
  { key: 'source', label: 'Source', show: (v) => SOURCE_LABELS[v.source] ?? v.source, text: (v) => v.source },
  { key: 'overrideReason', label: 'Reason on the record', show: (v) => v.overrideReason ?? '—', text: (v) => v.overrideReason ?? '' },
];

/**
 * A record's history (GET /api/attendance/:id/history): the entry as first captured, each change
 * after it (who, when, why, before → after for the fields that changed), and where it stands now.
 */
/** GET /api/attendance/:id/history; reopened, it asks again (the roster may have corrected the record meanwhile). */
function useRecordHistory(recordId: number | null) {
  return useQuery({
    queryKey: ['/api/attendance', recordId, 'history'],
    queryFn: () => apiParse(attendanceHistorySchema, 'GET', `/api/attendance/${recordId}/history`),
    enabled: recordId !== null,
    staleTime: 0,
  });
}

/** The record being shown: its id and a line saying which meeting it is. */
export type HistoryTarget = { id: number; description: string };

export function RecordHistoryDialog({ record, onClose }: { record: HistoryTarget | null; onClose: () => void }) {
  const history = useRecordHistory(record?.id ?? null);
  const fields = fieldsWith(usePunchFormat());
  return (
    <Modal open={record !== null} onOpenChange={(open) => !open && onClose()} size="xl" title="Record history" description={record?.description}>
      {history.isLoading ? (
        <p role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4 text-blue-700" /> Loading history…
        </p>
      ) : history.isError || !history.data ? (
        <Alert>The history of this record could not be loaded. Try again.</Alert>
      ) : (
        <div className="space-y-6">
          <section aria-labelledby="original-heading">
            <h3 id="original-heading" className="text-sm font-semibold text-slate-900">
              As first captured
            </h3>
            <p className="mt-0.5 text-xs text-slate-600">
              {formatDateTime(history.data.original.capturedAt)} · {capturedBy(history.data.original.capturedBy, history.data.original.source)}
            </p>
            <Values fields={fields} values={history.data.original} />
          </section>

          <section aria-labelledby="changes-heading">
            <h3 id="changes-heading" className="text-sm font-semibold text-slate-900">
              Changes ({history.data.changes.length})
            </h3>
            {history.data.changes.length === 0 ? (
              <p className="mt-1 text-sm text-slate-600">Unchanged since it was captured.</p>
            ) : (
              <ol className="mt-2 space-y-4">
                {history.data.changes.map((c, i) => (
                  <li key={`${c.at}-${i}`} className="rounded-lg border border-slate-200 p-3">
                    <p className="text-sm text-slate-900">
                      <strong>{c.by ?? 'The system'}</strong> · {formatDateTime(c.at)}
                    </p>
                    <p className="mt-1 text-sm text-slate-700">
                      <span className="font-medium">Why:</span> {c.reason}
                    </p>
                    <ChangeTable fields={fields} before={c.before} after={c.after} />
                  </li>
                ))}
              </ol>
            )}
          </section>

          {history.data.changes.length > 0 ? (
            <section aria-labelledby="current-heading">
              <h3 id="current-heading" className="text-sm font-semibold text-slate-900">
                Now
              </h3>
              <Values fields={fields} values={history.data.current} />
            </section>
          ) : null}
        </div>
      )}
    </Modal>
  );
}

function capturedBy(by: string | null, source: RecordValues['source']): string {
  if (by) return `by ${by}`;
  if (source === 'qr') return "by the student's own scan";
  if (source === 'auto') return 'by the automatic absence check';
  return 'by an unknown user';
}

function Values({ fields, values }: { fields: Field[]; values: RecordValues }) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
      {fields.map((f) => (
        <div key={f.key} className="min-w-0">
          <dt className="text-xs text-slate-600">{f.label}</dt>
          <dd className="break-words text-slate-900">{f.show(values)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ChangeTable({ fields, before, after }: { fields: Field[]; before: RecordValues; after: RecordValues }) {
  const changed = fields.filter((f) => f.text(before) !== f.text(after));
  if (changed.length === 0) return <p className="mt-2 text-xs text-slate-600">No field changed.</p>;
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Before and after</caption>
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Field
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Before
            </th>
            <th scope="col" className="py-1 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {changed.map((f) => (
            <tr key={f.key}>
              <th scope="row" className="py-1 pr-3 font-normal text-slate-700">
                {f.label}
              </th>
              <td className="py-1 pr-3 text-slate-700">
                <span className="line-through decoration-slate-400">{f.show(before)}</span>
              </td>
              <td className="py-1 font-medium text-slate-900">
                <span aria-hidden="true">→ </span>
                {f.show(after)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
