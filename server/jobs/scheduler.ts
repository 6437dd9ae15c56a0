import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { runScheduledBackup } from '../modules/backups/service.ts';
import { systemClock } from '../lib/clock.ts';
import { purgeExpiredCounters } from '../lib/shared-counters.ts';
import { sweepInterruptedUploads } from '../modules/imports/service.ts';
import { syncLeaveStatuses } from '../modules/compliance/service.ts';
import { markAbsentees } from './auto-absent.ts';
import { purgeExpiredLoginSessions } from './login-session-cleanup.ts';
import { purgeExpiredData } from './retention.ts';

type JobContext = { db: Db; config: Config };
type Job = { name: string; everyMs: number; run: (ctx: JobContext) => Promise<unknown> };

// Each job is idempotent and takes a transaction-scoped advisory lock, so several app instances
// running the same schedule do the work once.
const JOBS: Job[] = [
  { name: 'interrupted-uploads', everyMs: 60 * 1000, run: ({ db }) => sweepInterruptedUploads(db) },
  { name: 'rate-limit-counters', everyMs: 10 * 60 * 1000, run: ({ db }) => purgeExpiredCounters(db, systemClock.now()) },
  { name: 'login-session-cleanup', everyMs: 60 * 60 * 1000, run: ({ db }) => purgeExpiredLoginSessions(db) },
  { name: 'auto-absent', everyMs: 5 * 60 * 1000, run: ({ db }) => markAbsentees(db, systemClock) },
  // A leave that starts today makes the student `loa`; one that ended gives the status back.
  { name: 'leave-statuses', everyMs: 15 * 60 * 1000, run: ({ db }) => syncLeaveStatuses(db, systemClock) },
  { name: 'retention', everyMs: 6 * 60 * 60 * 1000, run: ({ db }) => purgeExpiredData(db, systemClock) },
  // Checks every minute whether the school's backup time has passed; the day's run is claimed once.
  { name: 'nightly-backup', everyMs: 60 * 1000, run: ({ db, config }) => runScheduledBackup({ db, config, clock: systemClock }) },
];

export function startJobs(deps: { db: Db; config: Config; log: FastifyBaseLogger }): { stop: () => void } {
  const timers = JOBS.map((job) => {
    const tick = () =>
      job.run({ db: deps.db, config: deps.config }).catch((err) => deps.log.error({ err, job: job.name }, 'job failed'));
    const first = setTimeout(tick, 5_000);
    const every = setInterval(tick, job.everyMs);
    first.unref();
    every.unref();
    return [first, every] as const;
  });
  return {
    stop: () => {
      for (const [a, b] of timers) {
        clearTimeout(a);
        clearInterval(b);
      }
    },
  };
}
