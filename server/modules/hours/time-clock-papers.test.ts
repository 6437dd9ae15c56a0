import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, courses, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { createTestApp, fixedClock, sessionsRanFor, type TestApp } from '../../test/helpers.ts';
import { readPdf, type PdfPage, type PdfRun } from '../../test/pdf-reader.ts';

/*
 * Decision 050: the time card, the hours export and the monthly report show the same time-clock lines,
 * and their totals agree to the minute, for a program whose rules round, deduct and cap.
 *
 * Chicago (April 2026 is CDT, UTC−5); read on Monday 15 June 2026. Classes Mon–Fri 08:00–19:00
 * (660 min) from Mon 6 to Fri 17 April, every meeting held: 10 × 660 = 6,600 scheduled.
 * Rules from 1 April: rounding to the nearest 15 minutes from the class start with 7 minutes' grace,
 * 30 minutes' meal deduction after 300 minutes without a break, at most 600 a day and 2,400 a week
 * (Sunday to Saturday), a missing check-out checked out at the class end and flagged
 * (auto_check_out_flagged); from 13 April the same but no_credit.
 *
 *   day      punches        raw  rounded                          deducted  capped               attended
 *   Mon 4/6  08:05–19:00    655  660 (08:05 within grace → 08:00)   30      30 (day: 630 → 600)   600   week 600
 *   Tue 4/7  07:58–18:52    652  645 (18:52 → 18:45)                30      15 (615 → 600)        600   week 1,200
 *   Wed 4/8  08:20–13:10    290  300 (08:15–13:15; not > 300)        0       0                    300   week 1,500
 *   Thu 4/9  08:00, no out    0  660 (to the class end; 660 auto)   30      30 (630 → 600)        600   week 2,100
 *   Fri 4/10 08:00–19:00    660  660                                30     330 (600 by the day, 300 left in the week) 300
 *   Mon 4/13 08:10, no out    0    0 (no_credit: 08:15–19:00 = 645 pending an exception)           0
 *   Tue 4/14 08:00–12:00    240  240                                 0       0                    240
 * Totals: raw 2,497 (41:37) · rounded 3,165 (52:45) · deducted 120 (2:00) · capped 405 (6:45) ·
 * attended 2,640 (44:00) = 3,165 − 120 − 405 · pending exception 645 (10:45) · auto check-out 660 (11:00).
 * Nothing excused or made up: credited = attended.
 */

const clock = fixedClock('2026-06-15T17:00:00Z');
const FROM = '2026-04-01';
const TO = '2026-04-30';
let t: TestApp;
let admin: string;
let programId: number;
let studentId: number;

type Figures = { raw: number; rounded: number; deducted: number; capped: number; attended: number; pending: number; auto: number };
const DAYS: Record<string, Figures> = {
  '2026-04-06': { raw: 655, rounded: 660, deducted: 30, capped: 30, attended: 600, pending: 0, auto: 0 },
  '2026-04-07': { raw: 652, rounded: 645, deducted: 30, capped: 15, attended: 600, pending: 0, auto: 0 },
  '2026-04-08': { raw: 290, rounded: 300, deducted: 0, capped: 0, attended: 300, pending: 0, auto: 0 },
  '2026-04-09': { raw: 0, rounded: 660, deducted: 30, capped: 30, attended: 600, pending: 0, auto: 660 },
  '2026-04-10': { raw: 660, rounded: 660, deducted: 30, capped: 330, attended: 300, pending: 0, auto: 0 },
  '2026-04-13': { raw: 0, rounded: 0, deducted: 0, capped: 0, attended: 0, pending: 645, auto: 0 },
  '2026-04-14': { raw: 240, rounded: 240, deducted: 0, capped: 0, attended: 240, pending: 0, auto: 0 },
};
const TOTALS = { scheduled: 6600, raw: 2497, rounded: 3165, deducted: 120, capped: 405, attended: 2640, credited: 2640, pending: 645, auto: 660 };

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  admin = (await t.signedIn('it_admin')).cookie;
  const instructorId = (await t.signedIn('instructor')).userId;

  [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Cosmetology' }).returning({ id: programs.id })) as [{ id: number }];
  const rules = {
    rounding: 'nearest',
    roundingMinutes: 15,
    graceMinutes: 7,
    mealDeduction: { afterMinutes: 300, minutes: 30 },
    dailyMaxMinutes: 600,
    weeklyMaxMinutes: 2400,
  };
  for (const [effectiveFrom, missingCheckOut] of [
    ['2026-04-01', 'auto_check_out_flagged'],
    ['2026-04-13', 'no_credit'],
  ]) {
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}/time-clock`,
      headers: { cookie: admin },
      payload: { ...rules, missingCheckOut, effectiveFrom },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'COS-200', courseName: 'Cosmetology II', programId, clockHours: '600' })
    .returning({ id: courses.id })) as [{ id: number }];
  [{ id: studentId }] = (await t.db
    .insert(students)
    .values({ firstName: 'Marisol', lastName: 'Reyes', sisStudentId: 'COS-42', programId, enrollmentDate: '2026-04-01' })
    .returning({ id: students.id })) as [{ id: number }];
  const scheduleOf = new Map<number, number>();
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek,
        startTime: '08:00',
        endTime: '19:00',
        courseStartDate: '2026-04-06',
        courseEndDate: '2026-04-17',
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleOf.set(dayOfWeek, id);
  }
  await t.db.insert(scheduleRosters).values([...scheduleOf.values()].map((scheduleId) => ({ scheduleId, studentId })));
  await sessionsRanFor(t.db, [...scheduleOf.values()], '2026-04-06', '2026-04-17');
  const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00-05:00`);
  const punch = (date: string, checkIn: string, checkOut: string | null) => ({
    studentId,
    scheduleId: scheduleOf.get(new Date(`${date}T00:00:00Z`).getUTCDay())!,
    sessionDate: date,
    status: 'present' as const,
    source: 'qr',
    scanInTime: at(date, checkIn),
    scanOutTime: checkOut ? at(date, checkOut) : null,
  });
  await t.db
    .insert(attendanceRecords)
    .values([
      punch('2026-04-06', '08:05', '19:00'),
      punch('2026-04-07', '07:58', '18:52'),
      punch('2026-04-08', '08:20', '13:10'),
      punch('2026-04-09', '08:00', null),
      punch('2026-04-10', '08:00', '19:00'),
      punch('2026-04-13', '08:10', null),
      punch('2026-04-14', '08:00', '12:00'),
    ]);
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ url, headers: { cookie: admin } });

/** A CSV download's rows as objects by header. */
function csvRows(body: string): Record<string, string>[] {
  const [head, ...lines] = body
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const keys = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i]!, v])));
}

/** Hours to two decimals back to minutes: exact, since 0.01 h is less than a minute. */
const minutes = (hours: string | undefined) => Math.round(Number(hours) * 60);

/** A page's runs of text, line by line (one baseline each). */
function runsByLine(page: PdfPage): PdfRun[][] {
  const byLine = new Map<number, PdfRun[]>();
  for (const r of page.runs) (byLine.get(r.y) ?? byLine.set(r.y, []).get(r.y)!).push(r);
  return [...byLine.values()];
}

/**
 * The time card's day rows as figures by column title: a right-aligned figure belongs to the title
 * whose right edge it shares (blank cells print nothing, so positions in a line would not say).
 */
function cardRows(page: PdfPage): Map<string, Record<string, number>> {
  const titles = ['Scheduled', 'Raw', 'Rounded', 'Deducted', 'Capped', 'Attended', 'Excused', 'Make-up', 'Credited', 'Pending', 'Auto out'];
  const headerY = page.runs.find((r) => r.text === 'Rounded')!.y;
  const edges = titles.map((title) => {
    const run = page.runs.find((r) => r.y === headerY && r.text === title)!;
    return { title, right: run.x + run.width };
  });
  const out = new Map<string, Record<string, number>>();
  for (const runs of runsByLine(page)) {
    const label = runs.find((r) => /^(\w{3} \d{4}-\d{2}-\d{2}|Totals)$/.test(r.text));
    if (!label) continue;
    const figures: Record<string, number> = {};
    for (const r of runs) {
      if (!/^\d+$/.test(r.text) || r.x < edges[0]!.right - 80) continue;
      const column = edges.reduce((a, b) => (Math.abs(b.right - (r.x + r.width)) < Math.abs(a.right - (r.x + r.width)) ? b : a));
      figures[column.title] = Number(r.text);
    }
    out.set(label.text.replace(/^\w{3} /, ''), figures);
  }
  return out;
}

describe('the time-clock lines on every paper', () => {
  it('counts each day as hand-computed, attended = rounded − deducted − capped', async () => {
    const res = await get(`/api/students/${studentId}/hours?asOf=${TO}&from=${FROM}&to=${TO}`);
    expect(res.statusCode, res.body).toBe(200);
    const h = res.json();
    const days = new Map<string, Record<string, number>>(h.days.map((d: Record<string, number> & { date: string }) => [d.date, d]));
    for (const [date, want] of Object.entries(DAYS)) {
      expect(days.get(date), date).toMatchObject({
        rawMinutes: want.raw,
        roundedMinutes: want.rounded,
        deductedMinutes: want.deducted,
        cappedMinutes: want.capped,
        attendedMinutes: want.attended,
        pendingExceptionMinutes: want.pending,
        autoCheckOutMinutes: want.auto,
      });
      expect(want.attended, date).toBe(want.rounded - want.deducted - want.capped);
    }
    expect(h.totals).toMatchObject({
      scheduledMinutes: TOTALS.scheduled,
      rawMinutes: TOTALS.raw,
      roundedMinutes: TOTALS.rounded,
      deductedMinutes: TOTALS.deducted,
      cappedMinutes: TOTALS.capped,
      attendedMinutes: TOTALS.attended,
      creditedMinutes: TOTALS.credited,
      pendingExceptionMinutes: TOTALS.pending,
      autoCheckOutMinutes: TOTALS.auto,
    });
  });

  it('prints the lines on the time card: each day, the totals row as their sums, and the totals in h:mm', async () => {
    const res = await get(`/api/students/${studentId}/time-card.pdf?from=${FROM}&to=${TO}`);
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload);
    expect(pdf.pages).toHaveLength(1);
    const page = pdf.pages[0]!;
    expect(page.width).toBe(792); // landscape letter: fifteen columns
    for (const r of page.runs) expect(r.x + r.width, r.text).toBeLessThanOrEqual(page.width - 36 + 0.01);
    // No cell runs into its neighbour.
    for (const runs of runsByLine(page)) {
      const sorted = runs.sort((a, b) => a.x - b.x);
      for (let i = 1; i < sorted.length; i++)
        expect(sorted[i]!.x, `${sorted[i - 1]!.text} | ${sorted[i]!.text}`).toBeGreaterThanOrEqual(sorted[i - 1]!.x + sorted[i - 1]!.width - 0.01);
    }
    expect(page.lines).toContain(
      'Date | Course | In–out | Status | Scheduled | Raw | Rounded | Deducted | Capped | Attended | Excused | Make-up | Credited | Pending | Auto out',
    );
    const rows = cardRows(page);
    for (const [date, want] of Object.entries(DAYS)) {
      const got = rows.get(date)!;
      // Zero prints blank in the deducted, capped, pending and auto check-out columns.
      expect(
        {
          raw: got.Raw,
          rounded: got.Rounded,
          deducted: got.Deducted ?? 0,
          capped: got.Capped ?? 0,
          attended: got.Attended,
          pending: got.Pending ?? 0,
          auto: got['Auto out'] ?? 0,
        },
        date,
      ).toEqual(want);
      expect(got.Attended, date).toBe(got.Rounded! - (got.Deducted ?? 0) - (got.Capped ?? 0));
    }
    // Ten meetings: the seven punched days and Wed 15 – Fri 17 April, absences (no record).
    expect([...rows.keys()].filter((d) => d !== 'Totals')).toHaveLength(10);
    const totals = rows.get('Totals')!;
    expect(totals).toEqual({
      Scheduled: TOTALS.scheduled,
      Raw: TOTALS.raw,
      Rounded: TOTALS.rounded,
      Deducted: TOTALS.deducted,
      Capped: TOTALS.capped,
      Attended: TOTALS.attended,
      Credited: TOTALS.credited,
      Pending: TOTALS.pending,
      'Auto out': TOTALS.auto,
    });
    // Each column's total is the sum of its days.
    for (const title of Object.keys(totals)) {
      const sum = [...rows.entries()].filter(([d]) => d !== 'Totals').reduce((n, [, f]) => n + (f[title] ?? 0), 0);
      expect(sum, title).toBe(totals[title]);
    }
    const block = page.lines.slice(page.lines.indexOf(`Totals, ${FROM} to ${TO} | h:mm | minutes`) + 1);
    expect(block.slice(0, 12)).toEqual([
      'Scheduled | 110:00 | 6600',
      'Raw punches, inside the classes | 41:37 | 2497',
      'Rounded (grace, rounding, missed-punch rule) | 52:45 | 3165',
      'Deducted (meal) | 2:00 | 120',
      'Capped (over the daily or weekly cap; not counted) | 6:45 | 405',
      'Attended (rounded − deducted − capped) | 44:00 | 2640',
      'Excused, credited (within the cap) | 0:00 | 0',
      'Excused, not credited (over the cap; to be made up) | 0:00 | 0',
      'Make-up | 0:00 | 0',
      'Credited (attended + make-up + excused within the cap) | 44:00 | 2640',
      'Pending an exception (a missing check-out; not counted) | 10:45 | 645',
      'Auto check-out (of attended; for review) | 11:00 | 660',
    ]);
  });

  it('agrees to the minute across the time card, the hours export and the monthly report', async () => {
    const card = cardRows(readPdf((await get(`/api/students/${studentId}/time-card.pdf?from=${FROM}&to=${TO}`)).rawPayload).pages[0]!).get('Totals')!;
    const fromCard = {
      raw: card.Raw,
      rounded: card.Rounded,
      deducted: card.Deducted,
      capped: card.Capped,
      attended: card.Attended,
      pending: card.Pending,
      auto: card['Auto out'],
    };

    const exported = await get(`/api/export/hours?programId=${programId}&from=${FROM}&to=${TO}`);
    expect(exported.statusCode).toBe(200);
    const [row] = csvRows(exported.body);
    // The six time-clock columns come last, after SPEC's.
    expect(Object.keys(row!).slice(-6)).toEqual(['rawHours', 'roundedHours', 'deductedHours', 'cappedHours', 'pendingExceptionHours', 'autoCheckOutHours']);
    expect(row).toMatchObject({
      rawHours: '41.62',
      roundedHours: '52.75',
      deductedHours: '2',
      cappedHours: '6.75',
      attendedHours: '44',
      pendingExceptionHours: '10.75',
      autoCheckOutHours: '11',
    });
    const fromExport = {
      raw: minutes(row!.rawHours),
      rounded: minutes(row!.roundedHours),
      deducted: minutes(row!.deductedHours),
      capped: minutes(row!.cappedHours),
      attended: minutes(row!.attendedHours),
      pending: minutes(row!.pendingExceptionHours),
      auto: minutes(row!.autoCheckOutHours),
    };

    const monthly = await get(`/api/reports/monthly-hours?month=2026-04&programId=${programId}`);
    expect(monthly.statusCode).toBe(200);
    const [month] = csvRows(monthly.body);
    expect(Object.keys(month!).slice(-6)).toEqual(['rawHours', 'roundedHours', 'deductedHours', 'cappedHours', 'pendingExceptionHours', 'autoCheckOutHours']);
    const fromMonthly = {
      raw: minutes(month!.rawHours),
      rounded: minutes(month!.roundedHours),
      deducted: minutes(month!.deductedHours),
      capped: minutes(month!.cappedHours),
      attended: minutes(month!.attendedHours),
      pending: minutes(month!.pendingExceptionHours),
      auto: minutes(month!.autoCheckOutHours),
    };

    const want = {
      raw: TOTALS.raw,
      rounded: TOTALS.rounded,
      deducted: TOTALS.deducted,
      capped: TOTALS.capped,
      attended: TOTALS.attended,
      pending: TOTALS.pending,
      auto: TOTALS.auto,
    };
    expect(fromCard).toEqual(want);
    expect(fromExport).toEqual(want);
    expect(fromMonthly).toEqual(want);
    expect(minutes(row!.scheduledHours)).toBe(card.Scheduled);
    expect(minutes(month!.scheduledHours)).toBe(card.Scheduled);
    expect(minutes(row!.creditedHours)).toBe(card.Credited);
    expect(minutes(month!.creditedHours)).toBe(card.Credited);

    // The monthly report's PDF prints the same figures in its time-clock table.
    const pdf = readPdf((await get(`/api/reports/monthly-hours?month=2026-04&programId=${programId}&format=pdf`)).rawPayload);
    const lines = pdf.pages.flatMap((p) => p.lines);
    expect(lines).toContain('COS-42 | Reyes | Marisol | Cosmetology | 41.62 | 52.75 | 2 | 6.75 | 44 | 10.75 | 11');
  });
});
