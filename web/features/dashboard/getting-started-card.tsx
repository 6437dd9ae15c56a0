import { CircleCheck, Circle } from 'lucide-react';
import { Link } from 'react-router';
import { can } from '../../../common/permissions.ts';
import { Card } from '../../components/ui/card.tsx';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useGettingStarted } from './dashboard-api.ts';
import { gettingStartedSteps } from './getting-started.ts';

/** After setup, administrators see what is left to do instead of a dashboard of zeros; gone once all is done. */
export function GettingStartedCard() {
  const user = useSignedInUser();
  const query = useGettingStarted({ enabled: can(user.role, 'users:manage') });
  if (!query.data) return null;
  const steps = gettingStartedSteps(query.data);
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <Card role="region" className="mb-6 px-5 py-4 sm:px-6" aria-labelledby="getting-started-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="getting-started-title" className="text-lg font-semibold text-slate-900">
          Getting started
        </h2>
        <p className="text-sm text-slate-600">
          {done} of {steps.length} done
        </p>
      </div>
      <ol className="mt-3 space-y-3">
        {steps.map((s) => (
          <li key={s.key} className="flex gap-3">
            {s.done ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-600" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-slate-400" />
            )}
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">
                {s.title}
                <span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
              </p>
              <p className="text-sm text-slate-600">
                {s.detail}{' '}
                {s.links.map((l, i) => (
                  <span key={l.to}>
                    {i > 0 ? ' · ' : ''}
                    <Link to={l.to} className="font-medium text-blue-700 underline-offset-2 hover:underline">
                      {l.label}
                    </Link>
                  </span>
                ))}
              </p>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}
