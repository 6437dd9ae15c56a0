import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TYPES } from '../../common/constants.ts';
import { ROLES, type Role } from '../../common/roles.ts';
import { createLoginSession } from '../plugins/login-sessions.ts';
import { buildProgram } from './factories.ts';
import { createTestApp, multipart, type TestApp } from './helpers.ts';
import { IDENTITIES, LIVE, renderMultipart, requestArb, routeSpecs, type FuzzRequest, type Pools, type RouteSpec } from './request-fuzzer.ts';

/**
 * Requests generated from every registered route's schema (request-fuzzer.ts),
 * sent anonymously and as each role, from many addresses. Two properties hold for every one:
 *  - no 5xx, ever;
 *  - no write on refusal: a 4xx leaves every table as it was (row count and the newest row
 *    version, max(xmin), per table — any insert, update or delete changes one of them), except
 *    the tables that legitimately record refusals (audit log, rate-limit counters, sign-in state,
 *    and for uploads — /api/upload and the courses screen's bulk upload, one engine — the upload log).
 * FUZZ_REQUESTS sets the number of requests (default 10,000), FUZZ_SEED the fast-check seed.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_309);
const ALWAYS_EXCLUDED = new Set(['audit_logs', 'rate_limit_counters', 'login_sessions', 'known_devices']);
const isUploadRoute = (url: string) => url === '/api/upload' || url.startsWith('/api/upload/') || url === '/api/courses/bulk-upload';
const excludedFor = (route: RouteSpec) => (isUploadRoute(route.url) ? new Set([...ALWAYS_EXCLUDED, 'file_uploads']) : ALWAYS_EXCLUDED);

let t: TestApp;
const users = {} as Record<Role, { cookie: string; userId: number; email: string }>;
// signedIn's password, so a valid-looking sign-in sometimes succeeds.
const PASSWORD = 'correct horse battery';
let routes: RouteSpec[];
let pools: Pools;
let fingerprintSql: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) users[role] = await t.signedIn(role);
  const admin = users.super_admin.cookie;
  const instructor = users.instructor;
  const api = async (method: 'POST' | 'GET', url: string, cookie: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: { cookie }, payload });
    if (res.statusCode >= 300) throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };

  // A small school, so valid-looking ids, session refs and tokens find real records.
  const programId = (await api('POST', '/api/programs', admin, { programName: 'Practical Nursing', durationHours: 320 })).json().id;
  const courseIds: number[] = [];
  for (const code of ['FZ-101', 'FZ-102'])
    courseIds.push((await api('POST', '/api/courses', admin, { courseCode: code, courseName: `Course ${code}`, programId, clockHours: 60 })).json().id);
  const studentIds: number[] = [];
  const names = ['Ana', 'Bo', 'Cy', 'Dee', 'Eli'];
  for (const [i, n] of names.entries()) {
    studentIds.push(
      (
        await api('POST', '/api/students', admin, {
          firstName: n,
          lastName: 'Fuzz',
          email: `${n.toLowerCase()}@student.edu`,
          sisStudentId: `STU-${100 + i}`,
          programId,
        })
      ).json().id,
    );
  }
  const today = new Date();
  const scheduleId = (
    await api('POST', '/api/schedules', admin, {
      courseId: courseIds[0],
      instructorId: instructor.userId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: today.getUTCDay(),
      startTime: '00:00',
      endTime: '23:59',
      courseStartDate: '2024-01-01',
      courseEndDate: '2030-12-31',
    })
  ).json().id;
  await api('POST', `/api/schedules/${scheduleId}/roster`, admin, { studentIds });
  live.scheduleId = scheduleId;
  await refreshLive(true);
  // The templates, with what they refer to imported, so a valid-looking upload can succeed.
  const csvFiles = [
    { name: 'courses-simple.csv', content: 'courseCode,courseName,clockHours,programId\nFZ-201,Fuzz course,60,\nFZ-202,Second,75,' + programId + '\n' },
  ];
  for (const type of UPLOAD_TYPES) {
    const content = (await api('GET', `/api/templates/${type}`, admin)).body;
    csvFiles.push({ name: `${type}.csv`, content });
    if (type !== 'students' && type !== 'schedules') {
      const file = multipart(`${type}.csv`, content);
      const res = await t.app.inject({ method: 'POST', url: `/api/upload/${type}`, headers: { cookie: admin, ...file.headers }, payload: file.payload });
      if (res.statusCode !== 200) throw new Error(`setup import ${type}: ${res.body}`);
    }
  }
  const dates = Array.from({ length: 8 }, (_, week) => new Date(today.getTime() - week * 7 * 86_400_000).toISOString().slice(0, 10));

  pools = {
    ids: [...new Set([programId, ...courseIds, ...studentIds, scheduleId, live.sessionNumber, ...ROLES.map((r) => users[r].userId), 1, 2, 3])],
    sessionRefs: [LIVE.sessionUuid, LIVE.sessionNumber],
    tokens: [LIVE.qrToken, LIVE.qrCode],
    sisIds: names.map((_, i) => `STU-${100 + i}`),
    emails: [...names.map((n) => `${n.toLowerCase()}@student.edu`), ...ROLES.map((r) => users[r].email)],
    names: [...names, 'Fuzz'],
    passwords: [PASSWORD],
    dates,
    csvFiles,
  };
  routes = routeSpecs(t.app.apiRoutes, t.app.swagger() as never);

  const { rows } = await t.db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  fingerprintSql = rows
    .map((r) => `select '${r.tablename}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as f from "${r.tablename}"`)
    .join(' union all ');
}, 120_000);
afterAll(() => t?.close());

/** The open QR session and its current token and code, refreshed every few seconds. */
const live = { scheduleId: 0, sessionUuid: '', sessionNumber: 0, qrToken: '', qrCode: '', refreshedAt: -Infinity };

/** Refresh the live values; start a new session when the fuzz ended the last one. True if it wrote. */
async function refreshLive(force = false): Promise<boolean> {
  if (!force && performance.now() - live.refreshedAt < 5_000) return false;
  live.refreshedAt = performance.now();
  const cookie = users.instructor.cookie;
  const image = () => t.app.inject({ url: `/api/qr-sessions/${live.sessionUuid}/qr-image`, headers: { cookie }, remoteAddress: '127.0.0.2' });
  let res = live.sessionUuid ? await image() : null;
  let wrote = false;
  if (res?.statusCode !== 200) {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/qr-sessions',
      headers: { cookie },
      payload: { scheduleId: live.scheduleId },
      remoteAddress: '127.0.0.2',
    });
    if (started.statusCode !== 201) {
      if (force) throw new Error(`setup: no QR session: ${started.body}`);
      return false;
    }
    live.sessionUuid = started.json().sessionId;
    live.sessionNumber = started.json().id;
    wrote = true;
    res = await image();
  }
  if (res.statusCode === 200) {
    live.qrToken = new URL(res.json().attendanceUrl).searchParams.get('t')!;
    live.qrCode = res.json().shortCode;
  }
  return wrote;
}
const withLiveValues = (text: string) =>
  text.includes('LIVE_')
    ? text
        .replaceAll(LIVE.sessionUuid, live.sessionUuid)
        .replaceAll(LIVE.sessionNumber, String(live.sessionNumber))
        .replaceAll(LIVE.qrToken, live.qrToken)
        .replaceAll(LIVE.qrCode, live.qrCode)
    : text;

/** Row count and newest row version of every table. */
async function fingerprint(): Promise<Map<string, string>> {
  // A named (prepared) statement: planned once per connection, it runs after every request.
  const { rows } = await t.db.$client.query<{ t: string; f: string }>({ name: 'route-fuzz-fingerprint', text: fingerprintSql });
  return new Map(rows.map((r) => [r.t, r.f]));
}

const changedTables = (before: Map<string, string>, after: Map<string, string>, excluded: Set<string>) =>
  [...after.keys()].filter((k) => !excluded.has(k) && before.get(k) !== after.get(k));

async function send(r: FuzzRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...r.headers };
  const own = r.identity === 'anonymous' ? null : users[r.identity].cookie;
  const cookie = [own, r.headers.cookie].filter(Boolean).join('; ');
  if (cookie) headers.cookie = cookie;
  let payload: string | Buffer | undefined;
  if (r.body.kind === 'json') {
    payload = withLiveValues(JSON.stringify(r.body.value) ?? 'null');
    headers['content-type'] = 'application/json';
  } else if (r.body.kind === 'raw') {
    payload = withLiveValues(r.body.payload);
    if (r.body.contentType) headers['content-type'] = r.body.contentType;
  } else if (r.body.kind === 'multipart') {
    const m = renderMultipart(r.body);
    payload = m.payload;
    headers['content-type'] = m.contentType;
  }
  const url = withLiveValues(r.path + (r.query ? `?${r.query}` : ''));
  return t.app.inject({ method: r.method as 'GET', url, headers, payload, remoteAddress: r.remoteAddress });
}

/**
 * A fuzzed request may sign a role out (logout), deactivate it or change its role (the users
 * routes): put each role back and give it a fresh session, so the rest of the run keeps its reach.
 */
async function restoreRoles(): Promise<void> {
  for (const role of ROLES) {
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: users[role].cookie }, remoteAddress: '127.0.0.2' });
    if (me.statusCode === 200 && me.json().role === role) continue;
    await t.db.execute(sql`update users set role = ${role}, is_active = true where id = ${users[role].userId}`);
    const token = await createLoginSession(t.db, users[role].userId, { ip: null, userAgent: 'route-fuzz' });
    users[role].cookie = `muster_session=${token}`;
  }
}
const mayHaveChangedRoles = (r: FuzzRequest, res: LightMyRequestResponse) =>
  /muster_session=;/.test(String(res.headers['set-cookie'] ?? '')) || (res.statusCode < 400 && /^\/api\/(users|auth|logout)/i.test(r.path));

const describeRequest = (r: FuzzRequest) => {
  const body =
    r.body.kind === 'json'
      ? JSON.stringify(r.body.value)
      : r.body.kind === 'raw'
        ? r.body.payload
        : r.body.kind === 'multipart'
          ? `multipart(${r.body.breakage}) ${r.body.parts.map((p) => `${p.name}:${p.fileName ?? ''}`).join(',')}`
          : '';
  return `${r.identity} ${r.method} ${r.path.slice(0, 200)}${r.query ? `?${r.query.slice(0, 200)}` : ''} ${String(body ?? '').slice(0, 300)}`;
};

describe('route fuzz: requests generated from every route schema', () => {
  it('sees every kind of write in its table fingerprint (insert, update, delete), and not a rolled-back one', async () => {
    const base = await fingerprint();
    const { id } = await buildProgram(t.db, { programName: 'Fingerprint check' });
    const inserted = await fingerprint();
    expect(changedTables(base, inserted, ALWAYS_EXCLUDED)).toEqual(['programs']);
    await t.db.execute(sql`update programs set description = 'changed' where id = ${id}`);
    const updated = await fingerprint();
    expect(changedTables(inserted, updated, ALWAYS_EXCLUDED)).toEqual(['programs']);
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`update programs set description = 'rolled back' where id = ${id}`);
        tx.rollback();
      })
      .catch(() => {});
    expect(changedTables(updated, await fingerprint(), ALWAYS_EXCLUDED)).toEqual([]);
    await t.db.execute(sql`delete from programs where id = ${id}`);
    expect(changedTables(updated, await fingerprint(), ALWAYS_EXCLUDED)).toEqual(['programs']);
  });

  it(`never answers 5xx and never writes on a refusal (${REQUESTS} requests, seed ${SEED})`, async () => {
    const started = performance.now();
    const perRoute = Math.ceil(REQUESTS / routes.length);
    // One seeded sample per route, interleaved, so every route is covered and the run is reproducible.
    const samples = routes.map((route, i) => fc.sample(requestArb(route, pools), { seed: SEED + i * 7919, numRuns: perRoute }));
    const stats = routes.map(() => ({ sent: 0, ok: 0, byStatus: new Map<number, number>(), refusals: [] as string[] }));
    const byIdentity = new Map(IDENTITIES.map((id) => [id, 0]));
    const serverErrors: string[] = [];
    const serverErrorRoutes = new Map<string, number>();
    let declared5xx = 0;
    let fingerprintMs = 0;
    const writesOnRefusal: string[] = [];
    const injectErrors: string[] = [];
    let sent = 0;
    let before = await fingerprint();

    for (let k = 0; k < REQUESTS; k++) {
      const index = k % routes.length;
      const route = routes[index]!;
      const request = samples[index]![Math.floor(k / routes.length)]!;
      if (await refreshLive()) before = await fingerprint();
      let res: LightMyRequestResponse;
      try {
        res = await send(request);
      } catch (err) {
        injectErrors.push(`#${k} ${describeRequest(request)}: ${(err as Error).message}`);
        continue;
      }
      sent += 1;
      const s = stats[index]!;
      s.sent += 1;
      if (res.statusCode < 400) s.ok += 1;
      else if (res.statusCode === 400 && s.refusals.length < 3) s.refusals.push(`${describeRequest(request).slice(0, 300)} → ${res.body.slice(0, 300)}`);
      s.byStatus.set(res.statusCode, (s.byStatus.get(res.statusCode) ?? 0) + 1);
      byIdentity.set(request.identity, byIdentity.get(request.identity)! + 1);
      if (res.statusCode >= 500 && route.declaredStatuses.includes(res.statusCode)) declared5xx += 1;
      else if (res.statusCode >= 500) {
        serverErrors.push(`#${k} ${res.statusCode} ${describeRequest(request)} → ${res.body.slice(0, 200)}`);
        serverErrorRoutes.set(`${route.method} ${route.url}`, (serverErrorRoutes.get(`${route.method} ${route.url}`) ?? 0) + 1);
      }
      const fpStarted = performance.now();
      const after = await fingerprint();
      fingerprintMs += performance.now() - fpStarted;
      if (res.statusCode >= 400 && res.statusCode < 500) {
        const changed = changedTables(before, after, excludedFor(route));
        if (changed.length)
          writesOnRefusal.push(`#${k} ${res.statusCode} wrote ${changed.join(', ')}: ${describeRequest(request)} → ${res.body.slice(0, 200)}`);
      }
      before = after;
      if (mayHaveChangedRoles(request, res)) {
        await restoreRoles();
        before = await fingerprint();
      }
    }

    const seconds = (performance.now() - started) / 1000;
    const statusTotals = new Map<number, number>();
    for (const s of stats) for (const [code, n] of s.byStatus) statusTotals.set(code, (statusTotals.get(code) ?? 0) + n);
    const reached = stats.filter((s) => s.ok > 0).length;
    console.log(
      [
        `route fuzz: seed ${SEED}, ${routes.length} routes × ~${perRoute} = ${sent} requests in ${seconds.toFixed(1)} s (${(fingerprintMs / 1000).toFixed(1)} s of it checking for writes)`,
        `  routes covered ${stats.filter((s) => s.sent > 0).length}/${routes.length}, answered 2xx/3xx at least once: ${reached}`,
        `  by identity: ${[...byIdentity].map(([id, n]) => `${id} ${n}`).join(', ')}`,
        `  statuses: ${[...statusTotals]
          .sort((a, b) => a[0] - b[0])
          .map(([c, n]) => `${c}×${n}`)
          .join(' ')}`,
        `  5xx seen: ${serverErrors.length} (plus ${declared5xx} 5xx a route declares, such as a readiness 503); writes on refusal: ${writesOnRefusal.length}; requests inject could not send: ${injectErrors.length}`,
        ...[...serverErrorRoutes].map(([r, n]) => `  5xx on ${r}: ${n}`),
        ...(process.env.FUZZ_VERBOSE
          ? routes.map(
              (r, i) =>
                `  ${r.method} ${r.url}: ${[...stats[i]!.byStatus]
                  .sort((a, b) => a[0] - b[0])
                  .map(([c, n]) => `${c}×${n}`)
                  .join(' ')}`,
            )
          : []),
        ...routes.filter((_, i) => stats[i]!.ok === 0).map((r) => `  never 2xx/3xx: ${r.method} ${r.url}`),
        ...(process.env.FUZZ_VERBOSE
          ? routes.flatMap((r, i) => (stats[i]!.ok === 0 ? stats[i]!.refusals.map((x) => `    ${r.method} ${r.url} 400: ${x}`) : []))
          : []),
      ].join('\n'),
    );
    const report = (title: string, list: string[]) =>
      `${title} (seed ${SEED}, FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS} to replay):\n${list.slice(0, 25).join('\n')}`;
    expect(serverErrors, report('5xx answers', serverErrors)).toEqual([]);
    expect(writesOnRefusal, report('writes on refusal', writesOnRefusal)).toEqual([]);
    expect(injectErrors, report('requests that could not be sent', injectErrors)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    // The generator must reach the handlers, not only the validators: most routes answer 2xx sometimes
    // (checked on full runs; a short debugging run is too small to say).
    if (perRoute >= 100) expect(reached).toBeGreaterThanOrEqual(Math.floor(routes.length * 0.75));
  }, 900_000);
});
