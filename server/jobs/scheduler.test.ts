import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.ts';
import { queueEmails } from '../modules/outbox/service.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { startTestSmtpServer } from '../test/mail-server.ts';
import { JOBS, startJobs, type Job, type JobRunner } from './scheduler.ts';
import { createFieldCipher } from '../lib/field-cipher.ts';
import { randomBytes } from 'node:crypto';

// The job queue (pg-boss) on a real database: runs, retries, history, and the outbox woken at commit.
let t: TestApp;
let config: Config;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
const runners: JobRunner[] = [];
const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as never;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp();
  config = { ...loadConfig({ NODE_ENV: 'test' }), smtp: { url: smtp.url, from: 'Muster <muster@school.test>' } };
});
afterAll(async () => {
  for (const r of runners) await r.stop();
  await t.close();
  await smtp.close();
});

const databaseUrl = () => t.db.$client.options.connectionString!;
const start = async (jobs: Job[]) => {
  const runner = await startJobs({ db: t.db, databaseUrl: databaseUrl(), config, cipher: createFieldCipher(randomBytes(32)), log: silent, jobs });
  runners.push(runner);
  return runner;
};
const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
};

describe('background jobs on the job queue', () => {
  let probeRuns = 0;
  let flakyRuns = 0;
  const outboxJob = JOBS.find((j) => j.name === 'outbox-delivery')!;

  it('every job of the app has a schedule pg-boss accepts', () => {
    expect(JOBS.map((j) => j.name)).toEqual(expect.arrayContaining(['auto-absent', 'retention', 'login-session-cleanup', 'nightly-backup', 'outbox-delivery']));
  });

  it('runs a job after start, retries one that fails, and shows both in the history', async () => {
    await start([
      { name: 'probe', cron: '0 3 * * *', run: async () => ({ checked: ++probeRuns }) },
      {
        name: 'flaky',
        cron: '0 4 * * *',
        retry: { limit: 2, delaySeconds: 1 },
        run: async () => {
          flakyRuns++;
          if (flakyRuns === 1) throw new Error('database was busy');
          return { ok: true };
        },
      },
      outboxJob,
    ]);
    await until(() => probeRuns === 1 && flakyRuns === 2);
    const admin = await t.signedIn('super_admin');
    let jobs: { name: string; schedule: string | null; runs: { state: string; error: string | null; retryCount: number }[] }[] = [];
    await until(async () => {
      jobs = (await t.app.inject({ url: '/api/settings/jobs', headers: { cookie: admin.cookie } })).json();
      return jobs.find((j) => j.name === 'flaky')?.runs[0]?.state === 'completed' && jobs.find((j) => j.name === 'probe')?.runs[0]?.state === 'completed';
    });
    expect(jobs.find((j) => j.name === 'probe')).toMatchObject({ schedule: '0 3 * * *', runs: [{ state: 'completed' }] });
    // The first attempt failed; the retry of the same run completed.
    expect(jobs.find((j) => j.name === 'flaky')!.runs[0]).toMatchObject({ state: 'completed', retryCount: 1 });
    const instructor = await t.signedIn('instructor');
    expect((await t.app.inject({ url: '/api/settings/jobs', headers: { cookie: instructor.cookie } })).statusCode).toBe(403);
  });

  it('a run queued once is worked by one instance, not once per instance', async () => {
    await start([{ name: 'probe', cron: '0 3 * * *', run: async () => ({ checked: ++probeRuns }) }, outboxJob]);
    await new Promise((r) => setTimeout(r, 1500));
    // The second instance's start-up run is queued once; it runs once, not once per worker.
    await until(() => probeRuns >= 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(probeRuns).toBe(2);
  });

  it('a committed message is sent within seconds, once, with two instances listening', async () => {
    const before = smtp.received.length;
    await t.db.transaction((tx) => queueEmails(tx, [{ kind: 'test', to: 'prompt@school.test', subject: 'Prompt', text: 'Sent at commit' }]));
    await until(() => smtp.received.length > before, 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['prompt@school.test']]);
    const { rows } = await t.db.execute<{ status: string }>(sql`select status from outbox_messages where recipient = 'prompt@school.test'`);
    expect(rows).toEqual([{ status: 'sent' }]);
  });
});
