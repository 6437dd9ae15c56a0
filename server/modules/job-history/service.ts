import type { BackgroundJob } from '../../../common/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import { jobQueueInstalled, selectJobRuns } from './queries.ts';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

/** A failed run's message as pg-boss stored it (`output` holds the serialised error). */
function runError(state: string, output: unknown): string | null {
  if (state !== 'failed' && state !== 'retry') return null;
  const o = output as { message?: unknown; value?: unknown } | null;
  if (o && typeof o.message === 'string') return o.message;
  return o ? JSON.stringify(o).slice(0, 300) : null;
}

/** Settings › System: each background job, its schedule and its recent runs. */
export async function listBackgroundJobs(db: DbOrTx, runsPerJob = 5): Promise<BackgroundJob[]> {
  // Before the first start of a server with the job queue (or in a test app), there is no history.
  if (!(await jobQueueInstalled(db))) return [];
  const jobs = new Map<string, BackgroundJob>();
  for (const r of await selectJobRuns(db, runsPerJob)) {
    const job = jobs.get(r.name) ?? { name: r.name, schedule: r.cron, runs: [] };
    jobs.set(r.name, job);
    if (r.state && r.created_on) {
      job.runs.push({
        state: r.state,
        createdAt: iso(r.created_on)!,
        startedAt: iso(r.started_on),
        completedAt: iso(r.completed_on),
        retryCount: r.retry_count ?? 0,
        error: runError(r.state, r.output),
      });
    }
  }
  return [...jobs.values()];
}
