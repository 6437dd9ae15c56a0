import { useQuery } from '@tanstack/react-query';
import { studentExceptionsSchema } from '../../../common/missed-punches.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { apiParse } from '../../lib/api.ts';
import { formatPercent } from '../../lib/format.ts';

/**
 * The student's punch exceptions (decision 053): meetings with a missed-punch request or a correction
 * that approved one, of the meetings they attended or asked about, and the requests still waiting.
 * Nothing is shown until it loads, or to a reader the server refuses.
 */
export function ExceptionSummary({ studentId }: { studentId: number }) {
  // Under the missed-punch requests' key: a decision on the roster refreshes it.
  const summary = useQuery({
    queryKey: ['/api/missed-punch-requests', 'student', studentId],
    queryFn: () => apiParse(studentExceptionsSchema, 'GET', `/api/students/${studentId}/exceptions`),
  });
  if (!summary.data) return null;
  const { exceptions, meetingsAttended, exceptionRate, openRequests } = summary.data;
  return (
    <Card className="mt-4 px-5 py-4 sm:px-6">
      <section aria-labelledby="exception-summary-heading" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <h2 id="exception-summary-heading" className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Punch exceptions
        </h2>
        <p className="text-slate-900">
          <span className="font-semibold tabular-nums">{exceptions}</span> of <span className="tabular-nums">{meetingsAttended}</span> meeting
          {meetingsAttended === 1 ? '' : 's'}
          <span className="text-slate-600"> · rate {formatPercent(exceptionRate)}</span>
        </p>
        {openRequests > 0 ? <Badge tone="amber">{openRequests === 1 ? '1 request waiting' : `${openRequests} requests waiting`}</Badge> : null}
      </section>
    </Card>
  );
}
