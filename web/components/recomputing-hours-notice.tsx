import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { recomputingHoursSchema } from '../../common/hours.ts';
import { apiParse } from '../lib/api.ts';

/**
 * "Recomputing hours for N students": after a policy, time-clock or calendar change, Muster
 * recomputes the kept hours of the students it touches in the background (decision 056). The
 * figures on screen are exact all along (a read recomputes what is still pending in its scope);
 * the notice says why the lists may load more slowly until it is done, and disappears then.
 */
export function RecomputingHoursNotice({ className = '' }: { className?: string }) {
  const recomputing = useQuery({
    queryKey: ['/api/hours/recomputing'],
    queryFn: () => apiParse(recomputingHoursSchema, 'GET', '/api/hours/recomputing'),
    refetchInterval: (q) => (q.state.data?.students ? 5_000 : 60_000),
  });
  const n = recomputing.data?.students ?? 0;
  if (n === 0) return null;
  return (
    <p role="status" className={`flex items-center gap-2 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-950 ${className}`}>
      <RefreshCw aria-hidden="true" className="size-4 shrink-0" />
      Recomputing hours for {n.toLocaleString()} {n === 1 ? 'student' : 'students'} after a change. The figures shown are up to date; lists may load more slowly
      until this finishes.
    </p>
  );
}
