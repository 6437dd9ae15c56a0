import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { asHeavyWork } from '../lib/give-way.ts';
import type { FieldCipher } from '../lib/field-cipher.ts';
import { purgeExpiredCounters } from '../lib/shared-counters.ts';
import { runScheduledBackup } from '../modules/backups/service.ts';
import { syncLeaveStatuses } from '../modules/compliance/service.ts';
import { recordYesterdaysStudentsAtRisk } from '../modules/attendance-alerts/service.ts';
import { sweepInterruptedUploads } from '../modules/imports/service.ts';
import { sendLowAttendanceAlerts } from '../modules/notifications/service.ts';
import { runWeeklyReport } from '../modules/digests/service.ts';
import { refreshStaleLedgers } from '../modules/hours/service.ts';
import { purgeExpiredHoursLinks } from '../modules/student-hours/service.ts';
import { OUTBOX_CHANNEL, createMessageSenders, deliverDueMessages, type MessageSenders } from '../modules/outbox/service.ts';
import { markAbsentees } from './auto-absent.ts';
import { purgeExpiredLoginSessions } from './login-session-cleanup.ts';
import { purgeExpiredData } from './retention.ts';

export type JobContext = { db: Db; config: Config; cipher: FieldCipher; clock: Clock; senders: MessageSenders };
export type Job = {
  name: string;
  /** Cron, UTC. */
  cron: string;
  run: (ctx: JobContext) => Promise<unknown>;
  /** A run that throws is tried again this many times, after delaySeconds, doubling (default 3 × 30 s). */
  retry?: { limit: number; delaySeconds: number };
};

/** pg-boss keeps its tables in their own schema, next to Muster's. */
const JOB_QUEUE_SCHEMA = 'pgboss';

// Each job is idempotent; pg-boss starts each scheduled run once across every instance (its
// timekeeper holds a lock), the `stately` policy keeps one run queued and one active at most, and
// a run that throws is retried with backoff. Jobs that act at a school-local hour (backups, the
// weekly report) run often and claim their day or week in the database.
export const JOBS: Job[] = [
  { name: 'interrupted-uploads', cron: '* * * * *', run: ({ db }) => sweepInterruptedUploads(db) },
  { name: 'rate-limit-counters', cron: '*/10 * * * *', run: ({ db, clock }) => purgeExpiredCounters(db, clock.now()) },
  { name: 'login-session-cleanup', cron: '7 * * * *', run: ({ db }) => purgeExpiredLoginSessions(db) },
  // Students' e-mailed hours links stop working after 7 days; their rows go soon after.
  { name: 'hours-link-cleanup', cron: '37 * * * *', run: ({ db, clock }) => purgeExpiredHoursLinks(db, clock) },
  { name: 'auto-absent', cron: '*/5 * * * *', run: ({ db, clock }) => markAbsentees(db, clock) },
  // A leave that starts today makes the student `loa`; one that ended gives the status back.
  { name: 'leave-statuses', cron: '*/15 * * * *', run: ({ db, clock }) => syncLeaveStatuses(db, clock) },
  // The dashboard's "Students at Risk" trend reads the figure recorded after each day; a day is recorded once.
  { name: 'students-at-risk-daily', cron: '11 * * * *', run: ({ db, clock }) => recordYesterdaysStudentsAtRisk(db, clock.now()) },
  // Kept ledgers (decision 056): what writes marked stale is recomputed, and after midnight every
  // student's kept days move on; compliance reads then walk only the days since.
  { name: 'kept-ledgers', cron: '* * * * *', run: ({ db, clock }) => refreshStaleLedgers(db, () => clock.now()) },
  { name: 'retention', cron: '23 */6 * * *', run: ({ db, clock }) => purgeExpiredData(db, clock) },
  // Checks every minute whether the school's backup time has passed; the day's run is claimed once.
  { name: 'nightly-backup', cron: '* * * * *', run: ({ db, config, clock }) => runScheduledBackup({ db, config, clock }) },
  // E-mails staff (and, per program, the student) when a low-attendance rule newly fires.
  { name: 'low-attendance-alerts', cron: '*/15 * * * *', run: (ctx) => sendLowAttendanceAlerts(ctx) },
  // Checks whether this week's Monday 07:00 (school time) has passed; the week's report is claimed once.
  { name: 'weekly-report', cron: '*/5 * * * *', run: ({ db, config, cipher, clock }) => runWeeklyReport({ db, config, cipher, clock }) },
  // Retries what is due; new messages are sent at once through the outbox notice below.
  { name: 'outbox-delivery', cron: '* * * * *', run: ({ db, senders, clock }) => deliverDueMessages(db, senders, clock) },
];

type StartDeps = { db: Db; databaseUrl: string; config: Config; cipher: FieldCipher; log: FastifyBaseLogger; clock?: Clock; jobs?: Job[] };
export type JobRunner = { boss: PgBoss; stop: () => Promise<void> };

/**
 * Start the job queue on the app's database: create each job's queue, (re)declare its schedule,
 * work it, and run each once soon after start. Message delivery is also woken by the outbox's
 * NOTIFY, which PostgreSQL sends only when the transaction that queued a message commits.
 */
export async function startJobs(deps: StartDeps): Promise<JobRunner> {
  const jobs = deps.jobs ?? JOBS;
  const senders = createMessageSenders(deps.config);
  const ctx: JobContext = { db: deps.db, config: deps.config, cipher: deps.cipher, clock: deps.clock ?? systemClock, senders };
  const boss = new PgBoss({
    connectionString: deps.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    max: 4,
    application_name: 'muster-jobs',
    // Finished runs stay visible (Settings › System) for two weeks.
    deleteAfterDays: 14,
  });
  boss.on('error', (err) => deps.log.error({ err }, 'job queue error'));
  await boss.start();
  const workers = new Map<string, string>();
  for (const job of jobs) {
    const retry = job.retry ?? { limit: 3, delaySeconds: 30 };
    await boss.createQueue(job.name, {
      name: job.name,
      policy: 'stately',
      retryLimit: retry.limit,
      retryDelay: retry.delaySeconds,
      retryBackoff: true,
      expireInSeconds: 30 * 60,
    });
    await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
    const workerId = await boss.work(job.name, { pollingIntervalSeconds: 5 }, async () => {
      try {
        // Background work: its long computations give way to requests being answered (lib/give-way.ts).
        return toJobOutput(await asHeavyWork(() => job.run(ctx)));
      } catch (err) {
        deps.log.error({ err, job: job.name }, 'job failed');
        throw err;
      }
    });
    workers.set(job.name, workerId);
    await boss.send(job.name, {});
  }

  const listener = new pg.Client({ connectionString: deps.databaseUrl, application_name: 'muster-outbox-listener' });
  let listening = false;
  if (workers.has('outbox-delivery')) {
    await listener.connect();
    listener.on('notification', () => {
      void boss
        .send('outbox-delivery', {})
        .then(() => boss.notifyWorker(workers.get('outbox-delivery')!))
        .catch((err: unknown) => deps.log.error({ err }, 'could not wake the outbox worker'));
    });
    listener.on('error', (err) => deps.log.error({ err }, 'outbox listener lost its connection; the minute schedule still delivers'));
    await listener.query(`listen ${OUTBOX_CHANNEL}`);
    listening = true;
  }
  return {
    boss,
    stop: async () => {
      if (listening) await listener.end().catch(() => {});
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
      senders.close();
    },
  };
}

/** What a run returned, as pg-boss stores it (an object), for the history in Settings › System. */
function toJobOutput(value: unknown): object | undefined {
  if (value == null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value;
  return { result: value };
}
