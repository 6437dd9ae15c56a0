import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from './modules/auth/service.ts';
import { PROJECT_ROOT } from './lib/project-root.ts';
import { INTERRUPTED_IMPORT } from './modules/imports/upload-log.ts';
import { buildCourse, buildProgram, buildStudent, buildUpload } from './test/factories.ts';
import { createTestDatabase } from './test/helpers.ts';

/**
 * Two app processes on one PostgreSQL, as a school with two servers behind a load balancer runs:
 * a check-in burst split across both with one killed (SIGKILL) in the middle; sign-in sessions,
 * QR tokens and rate limits shared; a job's work done once.
 */
type Instance = { name: string; proc: ChildProcess; base: string; output: () => string };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const instances: Instance[] = [];
const dirs: string[] = [];
const encryptionKey = randomBytes(32).toString('hex');
const STUDENTS = 160;
const OLD_UPLOADS = 5;

function startInstance(name: string): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `muster-${name}-`));
  dirs.push(dataDir);
  const proc = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: encryptionKey,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve({ name, proc, base: m[1]!, output: () => output });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${output}`)));
    setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 60_000).unref();
  });
}

const q = async <T>(text: string, params: unknown[] = []) => (await database.db.$client.query(text, params)).rows as T[];
const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`)) ?? null;

let admin = '';
let instructor = '';
let scheduleId = 0;

beforeAll(async () => {
  // dist/server/main.js is built once for the run by server/test/global-setup.ts.
  database = await createTestDatabase();
  // A school in UTC whose class meets today, with a roster of STUDENTS.
  await q(`update school_settings set time_zone = 'UTC'`);
  await insertUser(database.db, { email: 'admin@two.test', password: 'Two instances, one school', role: 'super_admin', firstName: 'Ada', lastName: 'Admin' });
  await insertUser(database.db, { email: 'teach@two.test', password: 'Two instances, one school', role: 'instructor', firstName: 'Ivy', lastName: 'Teach' });
  const program = await buildProgram(database.db, { programName: 'Practical Nursing', sisProgramId: 'PN' });
  await buildCourse(database.db, { courseCode: 'PN-101', courseName: 'Fundamentals', programId: program.id });
  for (let g = 1; g <= STUDENTS; g++) {
    await buildStudent(database.db, { firstName: `S${g}`, lastName: 'Burst', email: `s${g}@two.test`, sisStudentId: `SIS-${g}`, programId: program.id });
  }
  // Finished uploads older than any retention setting: the retention job must purge them once.
  const sixtyYearsAgo = new Date();
  sixtyYearsAgo.setUTCFullYear(sixtyYearsAgo.getUTCFullYear() - 60);
  for (let i = 0; i < OLD_UPLOADS; i++) {
    await buildUpload(database.db, { uploadType: 'students', fileName: 'old.csv', fileSize: 1, status: 'completed', createdAt: sixtyYearsAgo });
  }

  instances.push(await startInstance('a'), await startInstance('b'));
  const signIn = async (inst: Instance, email: string) => {
    const res = await fetch(`${inst.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Two instances, one school' }),
    });
    expect(res.status).toBe(200);
    return cookieOf(res, 'muster_session')!;
  };
  admin = await signIn(instances[0]!, 'admin@two.test');
  instructor = await signIn(instances[1]!, 'teach@two.test');
  const today = new Date();
  const [{ id: courseId }] = (await q<{ id: number }>(`select id from courses where course_code = 'PN-101'`)) as [{ id: number }];
  const [{ id: instructorId }] = (await q<{ id: number }>(`select id from users where email = 'teach@two.test'`)) as [{ id: number }];
  const res = await fetch(`${instances[0]!.base}/api/schedules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({
      courseId,
      instructorId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: today.getUTCDay(),
      startTime: '00:00',
      endTime: '23:59',
      roomNumber: 'B-2',
      courseStartDate: new Date(today.getTime() - 7 * 86_400_000).toISOString().slice(0, 10),
      courseEndDate: new Date(today.getTime() + 7 * 86_400_000).toISOString().slice(0, 10),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  scheduleId = ((await res.json()) as { id: number }).id;
}, 180_000);

afterAll(async () => {
  for (const i of instances) if (i.proc.exitCode === null && i.proc.signalCode === null) i.proc.kill('SIGKILL');
  await database?.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('two app instances on one database', () => {
  it('share sign-in sessions: a cookie from one is valid on the other', async () => {
    for (const [cookie, email] of [
      [admin, 'admin@two.test'],
      [instructor, 'teach@two.test'],
    ] as const) {
      for (const inst of instances) {
        const res = await fetch(`${inst.base}/api/auth/user`, { headers: { cookie } });
        expect(res.status, `${inst.name}`).toBe(200);
        expect(((await res.json()) as { email: string }).email).toBe(email);
      }
    }
  });

  it('count a rate limit once across both', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await fetch(`${instances[i % 2]!.base}/api/auth/set-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'x'.repeat(43), password: 'a long enough passphrase' }),
      });
      statuses.push(res.status);
    }
    // 20 a minute per address: per process each would have let 12 through, none refused.
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it('do a job once: the retention purge runs on one instance only', async () => {
    let purges: { removed: Record<string, number> }[] = [];
    for (let i = 0; i < 60 && purges.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      purges = await q(`select new_values->'removed' as removed from audit_logs where action = 'Purge'`);
    }
    await new Promise((r) => setTimeout(r, 3000)); // both instances' first tick has passed
    purges = await q(`select new_values->'removed' as removed from audit_logs where action = 'Purge'`);
    expect(purges).toHaveLength(1);
    expect(purges[0]!.removed.file_uploads).toBe(OLD_UPLOADS);
  }, 60_000);

  it('store every acknowledged check-in of a burst split across both, one killed with SIGKILL midway', async () => {
    const [a, b] = instances as [Instance, Instance];
    const started = await fetch(`${a.base}/api/qr-sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: instructor },
      body: JSON.stringify({ scheduleId }),
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const { sessionId } = (await started.json()) as { sessionId: string };
    // The QR token comes from instance A; half the phones open it on B.
    const image = await fetch(`${a.base}/api/qr-sessions/${sessionId}/qr-image`, { headers: { cookie: instructor } });
    const token = new URL(((await image.json()) as { attendanceUrl: string }).attendanceUrl).searchParams.get('t')!;

    let completed = 0;
    let bKilled = false;
    const acknowledged = new Set<string>();
    const failedOverToA: number[] = [];
    const checkIn = async (i: number) => {
      const sis = `SIS-${i}`;
      const device = `burst-device-${i}-${randomBytes(6).toString('hex')}`;
      const headers = { 'content-type': 'application/json', 'user-agent': `Phone/${i}`, cookie: `muster_device=${device}` };
      // A load balancer sends a phone whose instance died to the other one.
      for (const inst of i % 2 && !bKilled ? [b, a] : [a]) {
        try {
          const opened = await fetch(`${inst.base}/api/qr-sessions/public/${sessionId}?t=${token}`, { headers });
          const { pass } = (await opened.json()) as { pass: string };
          const res = await fetch(`${inst.base}/api/attendance/submit`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ sessionId, studentId: sis, firstName: `S${i}`, lastName: 'Burst', email: `s${i}@two.test`, pass }),
          });
          const body = (await res.json()) as { action?: string };
          if (res.status === 200 && body.action === 'checked_in') acknowledged.add(sis);
          if (inst === a && i % 2) failedOverToA.push(i);
          break;
        } catch {
          // the connection died with the instance: not acknowledged, try the other
        }
      }
      completed += 1;
      if (completed === STUDENTS / 2 && !bKilled) {
        bKilled = true;
        b.proc.kill('SIGKILL');
      }
    };
    const queue = Array.from({ length: STUDENTS }, (_, i) => i + 1);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await checkIn(i);
      }),
    );

    const stored = await q<{ sis: string }>(
      `select s.sis_student_id as sis from attendance_records r join students s on s.id = r.student_id where r.schedule_id = $1`,
      [scheduleId],
    );
    const storedSet = new Set(stored.map((r) => r.sis));
    const lost = [...acknowledged].filter((sis) => !storedSet.has(sis));
    console.log(
      `two-instance burst: ${STUDENTS} phones, ${acknowledged.size} acknowledged, ${stored.length} stored, ${lost.length} acknowledged but lost, ${failedOverToA.length} sent to A after B was killed`,
    );
    expect(bKilled).toBe(true);
    expect(lost).toEqual([]);
    expect(stored.length).toBe(new Set(stored.map((r) => r.sis)).size); // one record per student
    expect(acknowledged.size).toBeGreaterThan(STUDENTS * 0.9);
    // B's own sign-in sessions keep working on A.
    expect((await fetch(`${a.base}/api/auth/user`, { headers: { cookie: instructor } })).status).toBe(200);
  }, 120_000);

  it('a kill -9 in the middle of a 100,000-row import leaves nothing half-written and the upload marked failed', async () => {
    const header = 'sisStudentId,firstName,lastName,email,phone,programId,enrollmentDate';
    const lines = [header];
    for (let i = 1; i <= 100_000; i++)
      lines.push(`IMP${String(i).padStart(6, '0')},First${i},Last${i},imp${i}@two.test,555${String(i).padStart(7, '0')},PN,2026-08-24`);
    const csv = lines.join('\n') + '\n';
    const c = await startInstance('c');
    instances.push(c);
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'hundred-thousand.csv');
    const upload = fetch(`${c.base}/api/upload/students`, { method: 'POST', headers: { cookie: admin }, body: form }).then(
      (r) => r.status,
      () => 'connection lost' as const,
    );
    // Wait until the import is under way on C (its record says processing, owned by C), then a bit more.
    let id: number | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      await new Promise((r) => setTimeout(r, 50));
      id = (
        await q<{ id: number }>(`select id from file_uploads where file_name = 'hundred-thousand.csv' and status = 'processing' and owner_instance is not null`)
      )[0]?.id;
    }
    expect(id).toBeDefined();
    await new Promise((r) => setTimeout(r, 1500));
    c.proc.kill('SIGKILL');
    expect(await upload).toBe('connection lost');

    // Nothing of the file was written: the import is one transaction.
    expect((await q<{ n: number }>(`select count(*)::int as n from students where sis_student_id like 'IMP%'`))[0]!.n).toBe(0);
    expect((await q<{ n: number }>(`select count(*)::int as n from students`))[0]!.n).toBe(STUDENTS);
    // The instance that ran it is gone: its next start (or any instance's sweep within a minute)
    // marks the upload failed at once, though instance A is still running.
    const again = await startInstance('c-again');
    instances.push(again);
    const [row] = await q<{ status: string; errors: { message: string }[] }>(`select status, errors from file_uploads where id = $1`, [id]);
    expect(row).toMatchObject({ status: 'failed', errors: [{ message: INTERRUPTED_IMPORT }] });
  }, 120_000);
});
