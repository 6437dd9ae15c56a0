import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_CODE_OR_DETAILS, SCAN_DEVICE_USED, SCAN_NOT_FOUND, SCAN_TOO_MANY_CODES } from '../../../common/attendance.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { phoneRequest, seedClass, wrongCode, type Phone, type TestClass, type TestStudent } from '../attendance/test-support.ts';
import { WRONG_CODES_PER_ADDRESS, WRONG_CODES_PER_ADDRESS_AND_SESSION, networkOf } from './code-attempts.ts';

// The public check-in routes against guessing and enumeration (decision 006): sessions
// are read by UUID only, a typed code's answer says nothing about whether it was right, wrong codes
// are counted per address and per (address, session) across app instances, and a device that has
// checked someone in is refused before its details are matched.

// Monday 2 March 2026, 08:00:05 in Chicago: class 08:00–12:00.
const clock = fixedClock('2026-03-02T14:00:05Z');
let t: TestApp;
let second: FastifyInstance;
let cls: TestClass;
let other: TestClass;
let a: { sessionId: string; id: number };
let b: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  // A second instance on the same database, as a school with two servers behind a load balancer.
  second = await buildApp(
    { db: t.db, config: loadConfig({ NODE_ENV: 'test' }), clock, cipher: createFieldCipher(randomBytes(32)) },
    { webRoot: '/nonexistent' },
  );
  await second.ready();
  cls = await seedClass(t, 70, 'A');
  other = await seedClass(t, 2, 'B');
  a = await cls.startSession();
  b = await other.startSession();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const phone = (n: number, ip = '10.0.0.1'): Phone => ({ ip, device: `phone-${n}-${'x'.repeat(16)}` });
const typed = (session: string, s: TestStudent, p: Phone, code: string, app: FastifyInstance = t.app) =>
  app.inject({
    method: 'POST',
    url: '/api/attendance/submit',
    ...phoneRequest(p),
    payload: { sessionId: session, studentId: s.sis, firstName: s.first, lastName: s.last, email: s.email, token: code },
  });

describe('public session reads', () => {
  it('find a session by its UUID only, never by its sequential id', async () => {
    const byUuid = await cls.open(a.sessionId, phone(1));
    expect(byUuid.statusCode).toBe(200);
    expect(byUuid.json().sessionId).toBe(a.sessionId);
    const byNumber = await cls.open(String(a.id), phone(1));
    expect(byNumber.statusCode).toBe(404);
    // Counting from 1 finds nothing either.
    for (const n of [1, 2, 3]) expect((await cls.open(String(n), phone(1))).statusCode).toBe(404);
    const submitByNumber = await cls.submit(String(a.id), cls.students[0]!, phone(1), { token: (await cls.screen(a.sessionId)).code });
    expect(submitByNumber.statusCode).toBe(404);
    expect(submitByNumber.json().message).toBe(SCAN_NOT_FOUND);
    // Staff routes keep numeric ids.
    expect((await t.app.inject({ url: `/api/qr-sessions/${a.id}/qr-image`, headers: { cookie: cls.instructor.cookie } })).statusCode).toBe(200);
  });

  it('give a pass for the QR token of the scan URL, not for six typed digits', async () => {
    const screen = await cls.screen(a.sessionId);
    expect((await cls.open(a.sessionId, phone(2), screen.token)).json().pass).toBeTruthy();
    // The right six digits in `t` are answered like wrong ones: no pass, nothing learnt.
    expect((await cls.open(a.sessionId, phone(2), screen.code)).json().pass).toBeNull();
    expect((await cls.open(a.sessionId, phone(2), wrongCode(screen))).json().pass).toBeNull();
  });
});

describe('a typed code', () => {
  it('gets one answer when wrong, whatever the details, and the same when right with details that match nobody', async () => {
    const s = cls.students[0]!;
    const screen = await cls.screen(a.sessionId);
    const nobody = { ...s, sis: 'STU-NOBODY', first: 'No', last: 'Body', email: 'no@body.edu' };
    const answers = await Promise.all([
      typed(a.sessionId, nobody, phone(3, '10.1.0.1'), screen.code), // right code, details of nobody
      typed(a.sessionId, nobody, phone(3, '10.1.0.1'), wrongCode(screen)), // wrong code, details of nobody
      typed(a.sessionId, s, phone(3, '10.1.0.1'), wrongCode(screen, 2)), // wrong code, a real student
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    expect(answers[0]!.json()).toEqual({ code: 'CODE_OR_DETAILS', message: SCAN_CODE_OR_DETAILS });
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(answers[2]!.json()).toEqual(answers[0]!.json());
    const right = await typed(a.sessionId, s, phone(3, '10.1.0.1'), `${screen.code.slice(0, 3)} ${screen.code.slice(3)}`);
    expect(right.json()).toMatchObject({ action: 'checked_in' });
  });

  it('at /attendance/scan gets one answer when wrong and is counted there too', async () => {
    const screen = await cls.screen(a.sessionId);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/qr-sessions/code',
      ...phoneRequest(phone(4, '10.1.0.2')),
      payload: { code: wrongCode(screen) },
    });
    expect(wrong.statusCode).toBe(404);
    const right = await t.app.inject({ method: 'POST', url: '/api/qr-sessions/code', ...phoneRequest(phone(4, '10.1.0.2')), payload: { code: screen.code } });
    expect(right.json()).toMatchObject({ sessionId: a.sessionId });
  });
});

describe('a device that has checked a student in', () => {
  it('is refused for anyone else before the details are matched: a rostered student and an unknown ID get the same answer', async () => {
    const p = phone(5, '10.1.0.3');
    const [mine, classmate] = [cls.students[1]!, cls.students[2]!];
    const pass = (await cls.open(a.sessionId, p, (await cls.screen(a.sessionId)).token)).json().pass;
    expect((await cls.submit(a.sessionId, mine, p, { pass })).json()).toMatchObject({ action: 'checked_in' });
    const forClassmate = await cls.submit(a.sessionId, classmate, p, { pass });
    const forNobody = await cls.submit(a.sessionId, { ...classmate, sis: 'STU-NOBODY', first: 'No', last: 'Body', email: 'no@body.edu' }, p, { pass });
    const wrongName = await cls.submit(a.sessionId, { ...classmate, first: 'Wrong', last: 'Name', email: 'wrong@x.edu' }, p, { pass });
    expect(forClassmate.statusCode).toBe(409);
    expect(forClassmate.json().message).toBe(SCAN_DEVICE_USED);
    expect(forNobody.json()).toEqual(forClassmate.json());
    expect(wrongName.json()).toEqual(forClassmate.json());
    // Its own student again is a retry, not a refusal.
    expect((await cls.submit(a.sessionId, mine, p, { pass })).json()).toMatchObject({ action: 'checked_in' });
  });
});

describe('wrong typed codes are counted per address and session', () => {
  it(`refuses every attempt past ${WRONG_CODES_PER_ADDRESS_AND_SESSION} per (address, session) in an hour, right or wrong, counting both app instances together`, async () => {
    const ip = '10.2.0.1';
    const screen = await cls.screen(a.sessionId);
    const s = cls.students[3]!;
    const tries = WRONG_CODES_PER_ADDRESS_AND_SESSION + 10;
    // All at once, half to each instance: the count is atomic, so exactly the limit is checked.
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) => typed(a.sessionId, s, phone(100 + i, ip), wrongCode(screen, i + 1), i % 2 ? second : t.app)),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((x) => x === 403)).toHaveLength(WRONG_CODES_PER_ADDRESS_AND_SESSION);
    expect(statuses.filter((x) => x === 429)).toHaveLength(10);
    // Now even the right code is refused, with the same answer as a wrong one.
    const right = await typed(a.sessionId, s, phone(99, ip), screen.code);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ code: 'TOO_MANY_CODES', message: SCAN_TOO_MANY_CODES });
    // It says when to come back, in the header a client's retry logic reads.
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await typed(a.sessionId, s, phone(99, ip), wrongCode(screen))).json()).toMatchObject({ code: 'TOO_MANY_CODES' });
    // Scanning the QR still works from that address: the pass is not a guess.
    const p = phone(98, ip);
    const pass = (await cls.open(a.sessionId, p, screen.token)).json().pass;
    expect((await cls.submit(a.sessionId, s, p, { pass })).json()).toMatchObject({ action: 'checked_in' });
    // Another address, and another session from this address, are not affected.
    expect((await typed(a.sessionId, cls.students[4]!, phone(97, '10.2.0.2'), screen.code)).json()).toMatchObject({ action: 'checked_in' });
    expect((await typed(b.sessionId, other.students[0]!, phone(96, ip), (await other.screen(b.sessionId)).code)).json()).toMatchObject({
      action: 'checked_in',
    });
  });

  it(`refuses every attempt past ${WRONG_CODES_PER_ADDRESS} per address in an hour, across sessions and /attendance/scan`, async () => {
    const ip = '10.3.0.1';
    const screen = await cls.screen(a.sessionId);
    const s = cls.students[5]!;
    // A full session's worth on session A, the rest typed at /attendance/scan (which names no session).
    const onA = await Promise.all(
      Array.from({ length: WRONG_CODES_PER_ADDRESS_AND_SESSION }, (_, i) => typed(a.sessionId, s, phone(200 + i, ip), wrongCode(screen, i + 1))),
    );
    expect(onA.every((r) => r.statusCode === 403)).toBe(true);
    const rest = WRONG_CODES_PER_ADDRESS - WRONG_CODES_PER_ADDRESS_AND_SESSION;
    const atScan = await Promise.all(
      Array.from({ length: rest }, (_, i) =>
        second.inject({ method: 'POST', url: '/api/qr-sessions/code', ...phoneRequest(phone(600 + i, ip)), payload: { code: wrongCode(screen, 1000 + i) } }),
      ),
    );
    expect(atScan.every((r) => r.statusCode === 404)).toBe(true);
    // The address is spent: session B and /attendance/scan refuse the right codes too.
    const onB = await typed(b.sessionId, other.students[1]!, phone(95, ip), (await other.screen(b.sessionId)).code);
    expect(onB.statusCode).toBe(429);
    clock.advance(60_000); // past the route's own per-minute limit on /attendance/scan
    const scan = await t.app.inject({
      method: 'POST',
      url: '/api/qr-sessions/code',
      ...phoneRequest(phone(94, ip)),
      payload: { code: (await cls.screen(a.sessionId)).code },
    });
    expect(scan.json()).toMatchObject({ code: 'TOO_MANY_CODES', message: SCAN_TOO_MANY_CODES });
  });

  it('counts an IPv6 phone by its /64, which it can change addresses within', () => {
    expect(networkOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('192.0.2.7')).toBe('192.0.2.7');
  });

  it('lets a class of 60 on one school Wi-Fi address, each typing three wrong codes first, all check in', async () => {
    clock.set('2026-03-02T14:05:00Z');
    const ip = '172.16.0.1';
    const screen = await cls.screen(a.sessionId);
    const everyone = cls.students.slice(8, 68); // sixty students nobody has used yet
    const outcomes = await Promise.all(
      everyone.map(async (s, n) => {
        const p = phone(1000 + n, ip);
        const typos = [];
        for (let k = 1; k <= 3; k++) typos.push((await typed(a.sessionId, s, p, wrongCode(screen, n * 3 + k), n % 2 ? second : t.app)).statusCode);
        const done = await typed(a.sessionId, s, p, screen.code, n % 2 ? t.app : second);
        return { typos, done: done.statusCode, action: done.json().action };
      }),
    );
    expect(outcomes.flatMap((o) => o.typos).every((x) => x === 403)).toBe(true);
    expect(outcomes.map((o) => o.done)).toEqual(Array(60).fill(200));
    expect(outcomes.every((o) => o.action === 'checked_in')).toBe(true);
  });
});
