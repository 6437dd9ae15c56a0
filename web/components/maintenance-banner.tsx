import { useQuery } from '@tanstack/react-query';
import { Wrench, X } from 'lucide-react';
import { useState } from 'react';
import { apiParse } from '../lib/api.ts';

const DISMISSED_KEY = 'muster.dismissedMaintenanceNotices';
const when = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

function readDismissed(): number[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

/** Scheduled maintenance for signed-in staff, until its window ends or they dismiss it (per notice, per browser). */
export function MaintenanceBanner() {
  const notices = useQuery({
    queryKey: ['/api/maintenance-notices/current'],
    // Part of the shell: its schema (and zod) load with the answer, not before the first draw.
    queryFn: () => apiParse(async () => (await import('../../common/maintenance.ts')).maintenanceNoticesSchema, 'GET', '/api/maintenance-notices/current'),
    refetchInterval: 5 * 60_000,
  });
  const [dismissed, setDismissed] = useState(readDismissed);
  const shown = (notices.data ?? []).filter((n) => !dismissed.includes(n.id));
  if (shown.length === 0) return null;
  const dismiss = (id: number) => {
    const next = [...dismissed, id];
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(next.slice(-50)));
    setDismissed(next);
  };
  return (
    <div className="space-y-2 px-4 pt-4 sm:px-6 lg:px-10">
      {shown.map((n) => (
        <div
          key={n.id}
          role="status"
          className="mx-auto flex max-w-7xl items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          <Wrench aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="flex-1">
            <span className="font-semibold">
              Scheduled maintenance, {when.format(Date.parse(n.startsAt))} – {when.format(Date.parse(n.endsAt))}:
            </span>{' '}
            {n.message}
          </p>
          <button type="button" onClick={() => dismiss(n.id)} className="-m-1 rounded p-1 hover:bg-amber-100" aria-label="Dismiss this maintenance notice">
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
