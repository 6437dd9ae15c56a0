import type { AuditEntry } from '../../../common/audit-logs.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Modal } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { diffValues, type DiffRow } from './audit-diff.ts';
import { fieldLabel, formatTimestamp, recordLabel, tableLabel, userLabel } from './audit-format.ts';

const CHANGE: Record<DiffRow['change'], { label: string; tone: BadgeTone }> = {
  added: { label: 'Added', tone: 'green' },
  removed: { label: 'Removed', tone: 'red' },
  changed: { label: 'Changed', tone: 'amber' },
  unchanged: { label: 'Unchanged', tone: 'slate' },
};

/** The details button's dialog: old and new values side by side, one row per field. */
export function AuditDetailsDialog({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const rows = entry ? diffValues(entry.oldValues, entry.newValues) : [];
  const changed = rows.filter((r) => r.change !== 'unchanged').length;
  return (
    <Modal
      open={entry !== null}
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      title={entry ? [entry.action, tableLabel(entry.tableName), recordLabel(entry)].filter(Boolean).join(' · ') : 'Audit entry'}
      description={entry ? `${userLabel(entry)} · ${formatTimestamp(entry.timestamp)}${entry.ipAddress ? ` · ${entry.ipAddress}` : ''}` : undefined}
    >
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">This entry records no values.</p>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-700">
            {rows.length} {rows.length === 1 ? 'field' : 'fields'}, {changed} with a difference.
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="min-w-full text-left text-sm">
              <caption className="sr-only">Field-by-field changes</caption>
              <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Field
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Old value
                  </th>
                  <th scope="col" className="px-3 py-2">
                    New value
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((r) => (
                  <tr key={r.field} data-testid="diff-row" className={cn(r.change === 'unchanged' && 'text-slate-600')}>
                    <th scope="row" className="px-3 py-2 align-top font-medium break-words text-slate-900" title={r.field}>
                      {fieldLabel(r.field)}
                    </th>
                    <td className="px-3 py-2 align-top">
                      <Value value={r.before} tone={r.change === 'changed' || r.change === 'removed' ? 'old' : 'plain'} />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <Value value={r.after} tone={r.change === 'changed' || r.change === 'added' ? 'new' : 'plain'} />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <Badge tone={CHANGE[r.change].tone}>{CHANGE[r.change].label}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Modal>
  );
}

function Value({ value, tone }: { value: string | undefined; tone: 'old' | 'new' | 'plain' }) {
  if (value === undefined) return <span className="text-slate-500">—</span>;
  const classes = cn(
    'rounded px-1.5 py-0.5 font-mono text-xs break-all whitespace-pre-wrap no-underline',
    tone === 'old' && 'bg-red-50 text-red-900',
    tone === 'new' && 'bg-emerald-50 text-emerald-900',
  );
  if (tone === 'old') return <del className={classes}>{value}</del>;
  if (tone === 'new') return <ins className={classes}>{value}</ins>;
  return <span className={classes}>{value}</span>;
}
