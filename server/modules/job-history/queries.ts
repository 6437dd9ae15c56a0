import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

// pg-boss's own tables (schema `pgboss`, version 10): queue, schedule, job (live runs) and archive
// (finished runs moved out of job). Read-only here; pg-boss writes them.
const SCHEMA = 'pgboss';

export async function jobQueueInstalled(db: DbOrTx): Promise<boolean> {
  const { rows } = await db.execute<{ present: boolean }>(sql`select to_regclass(${`${SCHEMA}.queue`}) is not null as present`);
  return rows[0]?.present ?? false;
}

type JobRunRow = {
  name: string;
  cron: string | null;
  state: string | null;
  created_on: Date | null;
  started_on: Date | null;
  completed_on: Date | null;
  retry_count: number | null;
  output: unknown;
};

/** Every queue with its schedule and its last `perJob` runs, live and archived, newest first. */
export async function selectJobRuns(db: DbOrTx, perJob: number): Promise<JobRunRow[]> {
  const { rows } = await db.execute<JobRunRow>(sql`
    with runs as (
      select name, state::text, created_on, started_on, completed_on, retry_count, output from pgboss.job
      union all
      select name, state::text, created_on, started_on, completed_on, retry_count, output from pgboss.archive
    ), ranked as (
      select runs.*, row_number() over (partition by name order by created_on desc) as n from runs
    )
    select q.name, s.cron, r.state, r.created_on, r.started_on, r.completed_on, r.retry_count, r.output
    from pgboss.queue q
    left join pgboss.schedule s on s.name = q.name
    left join ranked r on r.name = q.name and r.n <= ${perJob}
    order by q.name, r.created_on desc nulls last`);
  return rows;
}
