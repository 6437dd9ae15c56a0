import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttendanceRow } from '../../../common/attendance.ts';
import { isProxyFlagReason } from '../../../common/check-in-flags.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { IPHONE, deviceCookieOf, seedClass, type TestClass, type TestStudent } from './test-support.ts';

// Decision 044: at a first meeting 4 of 4 check-ins were flagged "Possible proxy" (one school
// Wi-Fi, identical phones, each a new device cookie). A class of identical phones is played here the
// way students check in: groups arriving over the minutes around class start, each phone opening the
// QR (a new device cookie and a pass) and sending the form some seconds later. The false flags are
// counted; one phone checking students in one after another from private tabs must still be flagged.

// Monday 2 March 2026 in Chicago: class 08:00–12:00 (14:00–18:00Z); the QR goes up at 07:50.
const CLASS_START = Date.parse('2026-03-02T14:00:00Z');
const clock = fixedClock('2026-03-02T13:50:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

// A seeded generator (mulberry32): the same classes on every run.
function random(seed: number) {
  let s = seed;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return (lo: number, hi: number) => lo + (hi - lo) * next();
}

/** One browser visit: the QR opened at `openAt`, the form sent at `sendAt` (ms, whole seconds). */
type Visit = { student: TestStudent; openAt: number; sendAt: number };
const second = (ms: number) => Math.round(ms / 1000) * 1000;

/**
 * Students arriving as a class does: in groups of 1–4 (a group opens the QR within 10 s of each
 * other) spread from 6 minutes before the start to 4 minutes after, each taking 10–45 s to fill in
 * the form.
 */
function arrivals(students: TestStudent[], seed: number): Visit[] {
  const u = random(seed);
  const visits: Visit[] = [];
  let i = 0;
  while (i < students.length) {
    const r = u(0, 1);
    const size = Math.min(students.length - i, r < 0.4 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : 4);
    const at = CLASS_START + u(-6 * 60_000, 4 * 60_000);
    for (let k = 0; k < size; k++, i++) {
      const openAt = second(at + u(0, 10_000));
      visits.push({ student: students[i]!, openAt, sendAt: openAt + second(u(10_000, 45_000)) });
    }
  }
  return visits;
}

/** One phone checking students in one after another: a private tab each (15–30 s of typing), 8–30 s to open the next. */
function onePhone(students: TestStudent[], from: number, seed: number): Visit[] {
  const u = random(seed);
  let at = from;
  return students.map((student) => {
    const openAt = second(at);
    const sendAt = openAt + second(u(15_000, 30_000));
    at = sendAt + u(8_000, 30_000);
    return { student, openAt, sendAt };
  });
}

/**
 * Plays the visits on the server's clock, second by second; what happens in the same second is sent
 * at once. Every visit is a browser without a cookie (a new phone, or a private tab): opening the QR
 * gives it a device cookie and a pass, and the form goes with both.
 */
async function play(cls: TestClass, sessionId: string, visits: Visit[], phone: { ip: string; userAgent?: string }) {
  const opened = new Map<Visit, { device: string | null; pass: string }>();
  const times = [...new Set(visits.flatMap((v) => [v.openAt, v.sendAt]))].sort((a, b) => a - b);
  for (const at of times) {
    clock.set(new Date(at));
    const token = (await cls.screen(sessionId)).token;
    await Promise.all(
      visits.flatMap((v) => [
        ...(v.openAt === at
          ? [
              cls.open(sessionId, { ...phone, device: null }, token).then((res) => {
                opened.set(v, { device: deviceCookieOf(res), pass: res.json().pass });
              }),
            ]
          : []),
        ...(v.sendAt === at
          ? [
              cls.submit(sessionId, v.student, { ...phone, device: opened.get(v)!.device }, { pass: opened.get(v)!.pass }).then((res) => {
                expect(res.json()).toMatchObject({ action: 'checked_in' });
              }),
            ]
          : []),
      ]),
    );
  }
}

const flaggedIn = (rows: AttendanceRow[], students: TestStudent[]) =>
  rows.filter((r) => students.some((s) => s.id === r.studentId) && r.flags.some((f) => isProxyFlagReason(f.reason)));

async function firstMeeting(tag: string, size: number) {
  clock.set(new Date(CLASS_START - 10 * 60_000));
  const cls = await seedClass(t, size, tag);
  const session = await cls.startSession();
  return { cls, session };
}

describe('a first meeting of identical phones on one school Wi-Fi address', () => {
  it('flags almost none of four classes of 30 (120 check-ins), each phone new to Muster', async () => {
    const perClass: number[] = [];
    for (const [k, seed] of [1, 2, 3, 4].entries()) {
      const { cls, session } = await firstMeeting(`F${k}`, 30);
      await play(cls, session.sessionId, arrivals(cls.students, seed), { ip: `10.28.${k}.1`, userAgent: IPHONE });
      const rows = await cls.roster('2026-03-02');
      expect(rows.filter((r) => r.status === 'present' || r.status === 'late')).toHaveLength(30);
      perClass.push(flaggedIn(rows, cls.students).length);
    }
    const falseFlags = perClass.reduce((a, b) => a + b, 0);
    console.info(`identical phones, first meeting: ${falseFlags} of 120 check-ins flagged (per class: ${perClass.join(', ')})`);
    expect(falseFlags).toBeLessThanOrEqual(2);
  });

  it('does not flag four classmates who arrive together (4 of 4 were flagged before)', async () => {
    const { cls, session } = await firstMeeting('G', 4);
    const u = random(28);
    const visits = cls.students.map((student) => {
      const openAt = second(CLASS_START - 120_000 + u(0, 10_000));
      return { student, openAt, sendAt: openAt + second(u(20_000, 40_000)) };
    });
    await play(cls, session.sessionId, visits, { ip: '10.28.9.1' });
    expect(flaggedIn(await cls.roster('2026-03-02'), cls.students)).toEqual([]);
  });
});

describe('one phone checking in several students one after another at a first meeting', () => {
  it('flags every one of six check-ins from private tabs, each naming the others and saying why', async () => {
    const { cls, session } = await firstMeeting('H', 6);
    const visits = onePhone(cls.students, CLASS_START - 5 * 60_000, 6);
    await play(cls, session.sessionId, visits, { ip: '10.28.10.1' });
    const rows = await cls.roster('2026-03-02');
    const flagged = flaggedIn(rows, cls.students);
    console.info(`one phone, six private tabs one after another: ${flagged.length} of 6 flagged`);
    expect(flagged).toHaveLength(6);
    const rowOf = (s: TestStudent) => rows.find((r) => r.studentId === s.id)!;
    const [first, secondRow] = [rowOf(cls.students[0]!), rowOf(cls.students[1]!)];
    expect(first.flags.map((f) => f.reason)).toEqual(['shared_browser']);
    // Read together, each flag shows the whole run.
    expect(first.flags[0]!.otherStudents.map((o) => o.studentId).sort()).toEqual(
      cls.students
        .slice(1)
        .map((s) => s.id)
        .sort(),
    );
    // The second names the first, and says when its page was opened and how soon after the first was sent.
    const gap = (visits[1]!.openAt - visits[0]!.sendAt) / 1000;
    expect(secondRow.flags[0]!.evidence).toMatchObject({
      oneAfterAnother: true,
      otherRecordIds: [first.id],
      passIssuedAt: new Date(visits[1]!.openAt).toISOString(),
      gapSeconds: gap,
    });
  });

  it('flags a phone that checks in just two students one after another', async () => {
    const { cls, session } = await firstMeeting('I', 2);
    await play(cls, session.sessionId, onePhone(cls.students, CLASS_START - 3 * 60_000, 2), { ip: '10.28.11.1' });
    expect(flaggedIn(await cls.roster('2026-03-02'), cls.students)).toHaveLength(2);
  });

  it('counts a check-in sent with the code typed into the form (no pass) as opened when it was sent', async () => {
    const { cls, session } = await firstMeeting('T', 2);
    const [a, b] = cls.students as [TestStudent, TestStudent];
    await play(cls, session.sessionId, [{ student: a, openAt: CLASS_START, sendAt: CLASS_START + 20_000 }], { ip: '10.28.15.1' });
    // 40 s later a new browser opens the link without a fresh token (no pass) and types the code.
    clock.set(new Date(CLASS_START + 50_000));
    const opened = await cls.open(session.sessionId, { ip: '10.28.15.1', device: null });
    expect(opened.json().pass).toBeNull();
    clock.set(new Date(CLASS_START + 60_000));
    const sent = await cls.submit(
      session.sessionId,
      b,
      { ip: '10.28.15.1', device: deviceCookieOf(opened) },
      { token: (await cls.screen(session.sessionId)).code },
    );
    expect(sent.json()).toMatchObject({ action: 'checked_in' });
    const rows = await cls.roster('2026-03-02');
    expect(flaggedIn(rows, cls.students)).toHaveLength(2);
    expect(rows.find((r) => r.studentId === b.id)!.flags[0]!.evidence).toMatchObject({ oneAfterAnother: true, gapSeconds: 40, passIssuedAt: null });
  });
});

describe('what does not make two first-meeting check-ins one phone', () => {
  const at = (s: number) => CLASS_START + s * 1000;

  it('one page opened before the other was sent: two browsers at once', async () => {
    const { cls, session } = await firstMeeting('J', 2);
    const [a, b] = cls.students as [TestStudent, TestStudent];
    await play(
      cls,
      session.sessionId,
      [
        { student: a, openAt: at(0), sendAt: at(30) },
        { student: b, openAt: at(25), sendAt: at(45) },
      ],
      { ip: '10.28.12.1' },
    );
    expect(flaggedIn(await cls.roster('2026-03-02'), cls.students)).toEqual([]);
  });

  it('the next page opened more than a minute after the previous check-in was sent', async () => {
    const { cls, session } = await firstMeeting('K', 2);
    const [a, b] = cls.students as [TestStudent, TestStudent];
    await play(
      cls,
      session.sessionId,
      [
        { student: a, openAt: at(0), sendAt: at(20) },
        { student: b, openAt: at(81), sendAt: at(100) },
      ],
      { ip: '10.28.13.1' },
    );
    expect(flaggedIn(await cls.roster('2026-03-02'), cls.students)).toEqual([]);
  });

  it('another check-in from that address and browser in the minutes before: not a quiet moment', async () => {
    const { cls, session } = await firstMeeting('L', 3);
    const [x, a, b] = cls.students as [TestStudent, TestStudent, TestStudent];
    const visits = [
      // x and a were open at once (two browsers); b opened 10 s after a was sent.
      { student: x, openAt: at(-100), sendAt: at(-20) },
      { student: a, openAt: at(-30), sendAt: at(0) },
      { student: b, openAt: at(10), sendAt: at(30) },
    ];
    await play(cls, session.sessionId, visits, { ip: '10.28.14.1' });
    expect(flaggedIn(await cls.roster('2026-03-02'), cls.students)).toEqual([]);
  });
});
