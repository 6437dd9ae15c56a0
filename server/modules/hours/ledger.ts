import type { LedgerTotals, PaymentPeriodProgress } from '../../../common/hours.ts';
import { addDays, nextDay } from '../../../common/dates.ts';
import { EXCUSED_CAP_CEILING_PERCENT } from '../../../common/program-policy.ts';
import { dayOfWeek } from '../../lib/school-time.ts';
import { classWindow, scheduledBreakIntervals, whyNotAMeeting, type ClassWindow } from '../attendance/service.ts';
import type { ComputedLedger, LedgerCarry, LedgerDayRow, LedgerInput, LedgerOpening, LedgerRecord, LedgerSchedule } from './ledger-types.ts';
import { addRecordTime, firstActiveDay, firstMeeting, type DayTime } from './ledger-walk.ts';
import { capped, dayTime, rulesOn, unionMs, without, type Interval } from './time-clock.ts';

/**
 * The clock-hour ledger of one student as a pure function of what was scheduled, recorded and made
 * up (COMPLIANCE.md, docs/decisions/014-clock-hour-ledger.md). Minutes are exact integers; the
 * database is read elsewhere, so the tests hand this a hand-computed school. What it reads and
 * answers is in ledger-types.ts, the walk's helpers in ledger-walk.ts.
 */

const minutesOf = (ms: number) => Math.floor(ms / 60_000);

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

type PeriodState = {
  endMinutes: number;
  startMinutes: number;
  credited: number;
  hoursReachedOn: string | null;
  completedOnGiven: string | null;
  plan: { number: number };
};
type CheckpointState = { atMinutes: number; evaluatedOn: string | null; percent: number | null; met: boolean | null };

/**
 * Start the payment periods and SAP checkpoints from an opening balance: the periods' credits as
 * the school gave them (or the credited minutes filling the periods in order), a period whose
 * hours were reached before Muster reached them the day before its records start, and checkpoints
 * passed before then evaluated on the balance's own percentage. Answers the first period not full.
 */
function openPeriods(periods: PeriodState[], opening: LedgerOpening, checkpoints: CheckpointState[], minimumPercent: number): number {
  const dayBefore = addDays(opening.beforeDate, -1);
  const given = new Map((opening.periodCredits ?? []).map((c) => [c.number, c]));
  let rest = opening.creditedMinutes;
  for (const p of periods) {
    const size = p.endMinutes - p.startMinutes;
    const credit = opening.periodCredits ? (given.get(p.plan.number)?.creditedMinutes ?? 0) : Math.min(size, rest);
    rest -= credit;
    p.credited = Math.min(size, credit);
    if (p.credited >= size) p.hoursReachedOn = dayBefore;
    p.completedOnGiven = given.get(p.plan.number)?.completedOn ?? null;
  }
  const ratio = opening.scheduledMinutes > 0 ? (opening.creditedMinutes / opening.scheduledMinutes) * 100 : 100;
  for (const c of checkpoints) {
    if (opening.creditedMinutes < c.atMinutes) continue;
    c.evaluatedOn = dayBefore;
    c.percent = round1(ratio);
    c.met = ratio >= minimumPercent;
  }
  const firstOpen = periods.findIndex((p) => p.credited < p.endMinutes - p.startMinutes);
  return firstOpen === -1 ? periods.length : firstOpen;
}

/** What a day's missed meetings leave owed: scheduled time neither attended nor credited as excused. */
/** A day the student attended: even when a cap or a missing check-out leaves no minutes to count. */
export const isAttendanceDay = (d: LedgerDayRow) => d.roundedMinutes > 0 || d.makeUpMinutes > 0 || d.pendingExceptionMinutes > 0;

export const gapOf = (d: LedgerDayRow) => Math.max(0, d.scheduledMinutes - (d.creditedMinutes - d.makeUpMinutes));

/**
 * `resume`: where a walk of the same input stood at the end of an earlier day (Ledger.carry); the
 * days after it are walked and the answer is the same as walking from the start.
 */
export function computeLedger(input: LedgerInput, resume?: LedgerCarry | null): ComputedLedger {
  const { asOf, timeZone, closedDates, policy } = input;
  const cache = input.windowCache ?? new Map<string, ClassWindow>();
  // Keyed by what the window is a function of, so a cache may outlive a request (and a schedule's edit).
  const windowOf = (s: LedgerSchedule, date: string) => {
    const key = `${timeZone}|${date}|${s.startTime}|${s.endTime}`;
    let w = cache.get(key);
    if (!w) cache.set(key, (w = classWindow(date, s.startTime, s.endTime, timeZone)));
    return w;
  };
  // A meeting's breaks: the schedule's own (in school time) and any instructor-led ones that day.
  const noCuts: Interval[] = [];
  const cutsOf = (s: LedgerSchedule, date: string): readonly Interval[] => {
    const led = input.meetingBreaks?.get(`${s.scheduleId}|${date}`);
    if (!s.breaks?.length && !led) return noCuts;
    const cuts: Interval[] = s.breaks?.length ? scheduledBreakIntervals(date, s.startTime, s.endTime, s.breaks, timeZone) : [];
    if (led) cuts.push(...led);
    return cuts;
  };
  const startDate = input.enrollmentDate ?? firstMeeting(input.schedules, closedDates);
  const recordsFrom = input.opening?.beforeDate ?? input.recordsFrom ?? null;
  const scheduleById = new Map(input.schedules.map((s) => [s.scheduleId, s]));
  const recordsByDate = new Map<string, LedgerRecord[]>();
  for (const r of input.records) {
    if (startDate == null || r.sessionDate < startDate || r.sessionDate > asOf || (recordsFrom != null && r.sessionDate < recordsFrom)) continue;
    const list = recordsByDate.get(r.sessionDate) ?? [];
    list.push(r);
    recordsByDate.set(r.sessionDate, list);
  }
  const makeUpByDate = new Map<string, number>();
  for (const m of input.makeUps) if (recordsFrom == null || m.date >= recordsFrom) makeUpByDate.set(m.date, (makeUpByDate.get(m.date) ?? 0) + m.minutes);

  // ---- the days ----
  const days: LedgerDayRow[] = [];
  let weekCounted = resume?.countedThisWeek ?? 0;
  const firstActive = startDate == null ? null : firstActiveDay(startDate, input);
  const walkStart = firstActive != null && recordsFrom != null && recordsFrom > firstActive ? recordsFrom : firstActive;
  const resumeFrom = resume ? nextDay(resume.through) : null;
  const walkFrom = walkStart != null && resumeFrom != null && resumeFrom > walkStart ? resumeFrom : walkStart;
  if (walkFrom != null) {
    const rostered = input.schedules.filter((s) => s.onRoster);
    // One set of scratch lists for all days: a ledger walks hundreds of days, an export thousands of ledgers.
    const scheduled: Interval[] = [];
    const time: DayTime = { raw: [], credited: [], pendingExceptionMinutes: 0, autoCheckOutMinutes: 0 };
    const excused: Interval[] = [];
    const meetingOf = new Map<number, { w: ClassWindow; cuts: readonly Interval[] }>();
    const pending: Interval[] = [];
    const unrecorded: Interval[] = [];
    const nowMs = input.now?.getTime() ?? Number.POSITIVE_INFINITY;
    // Minutes counted so far in the week (Sunday to Saturday: the week of the school's calendar), for the weekly cap.
    let countedThisWeek = resume && walkFrom === resumeFrom ? resume.countedThisWeek : 0;
    for (let date = walkFrom, weekday = dayOfWeek(walkFrom); date <= asOf; date = nextDay(date), weekday = (weekday + 1) % 7) {
      if (weekday === 0) countedThisWeek = 0;
      const rules = rulesOn(input.timeClock, date);
      const closed = closedDates.has(date);
      const onLeave = input.leaveDates?.has(date) ?? false;
      const withdrawn = input.withdrawalDate != null && date > input.withdrawalDate;
      scheduled.length = 0;
      time.raw.length = 0;
      time.credited.length = 0;
      time.pendingExceptionMinutes = 0;
      time.autoCheckOutMinutes = 0;
      excused.length = 0;
      pending.length = 0;
      unrecorded.length = 0;
      meetingOf.clear();
      if (!closed && !onLeave && !withdrawn) {
        for (const s of rostered) {
          // Most schedules meet on another weekday: skip them before asking the full rule.
          if (s.dayOfWeek !== weekday && !s.makeupDates.includes(date)) continue;
          if (whyNotAMeeting(date, s) !== null) continue;
          const w = windowOf(s, date);
          const cuts = cutsOf(s, date);
          const inClass = without([[w.start.getTime(), w.end.getTime()]], cuts);
          if (w.end.getTime() > nowMs) {
            pending.push(...inClass);
            continue;
          }
          if (input.heldMeetings && !input.heldMeetings.has(`${s.scheduleId}|${date}`)) {
            unrecorded.push(...inClass);
            continue;
          }
          meetingOf.set(s.scheduleId, { w, cuts });
          scheduled.push(...inClass);
        }
      }
      for (const r of recordsByDate.get(date) ?? []) {
        const s = scheduleById.get(r.scheduleId);
        if (!s) continue;
        const meeting = meetingOf.get(r.scheduleId);
        // Excused time exists only for a meeting that was scheduled: a closed day is never an absence.
        if (r.status === 'excused') {
          if (meeting) excused.push(...without([[meeting.w.start.getTime(), meeting.w.end.getTime()]], meeting.cuts));
          continue;
        }
        const window = meeting?.w ?? windowOf(s, date);
        // A class that has not ended yet credits nothing yet: not even a check-in before it began.
        if (window.end.getTime() > nowMs) continue;
        addRecordTime(r, window, meeting?.cuts ?? cutsOf(s, date), rules, time);
      }
      // Rounded, less the meal deduction, then capped per day and week: the day's attended minutes.
      const { roundedMinutes, deductedMinutes } = dayTime(time.credited, rules);
      const cap = capped(roundedMinutes - deductedMinutes, countedThisWeek, rules);
      countedThisWeek += cap.counted;
      days.push({
        date,
        closed,
        onLeave,
        scheduledMinutes: minutesOf(unionMs(scheduled)),
        attendedMinutes: cap.counted,
        excusedMinutes: minutesOf(unionMs(excused)),
        makeUpMinutes: makeUpByDate.get(date) ?? 0,
        creditedMinutes: 0,
        pendingMinutes: minutesOf(unionMs(pending)),
        unrecordedMinutes: minutesOf(unionMs(unrecorded)),
        rawMinutes: minutesOf(unionMs(time.raw)),
        roundedMinutes,
        deductedMinutes,
        cappedMinutes: cap.capped,
        pendingExceptionMinutes: time.pendingExceptionMinutes,
        autoCheckOutMinutes: time.autoCheckOutMinutes,
      });
    }
    weekCounted = countedThisWeek;
  }

  // ---- payment periods, the excused cap and SAP, walking the days in order ----
  const plan = policy.paymentPeriods;
  const capPercent = Math.min(policy.excusedCapPercent, EXCUSED_CAP_CEILING_PERCENT);
  const periods = plan.map((p) => {
    const startMinutes = Math.round(p.startHours * 60);
    const endMinutes = Math.round(p.endHours * 60);
    return {
      plan: p,
      startMinutes,
      endMinutes,
      credited: 0,
      excusedCredited: 0,
      excusedCap: Math.floor(((endMinutes - startMinutes) * capPercent) / 100),
      hoursReachedOn: null as string | null,
      completedOnGiven: null as string | null,
    };
  });
  const checkpoints = [...policy.sapCheckpointHours]
    .sort((a, b) => a - b)
    .map((h) => ({
      atHours: h,
      atMinutes: Math.round(h * 60),
      evaluatedOn: null as string | null,
      percent: null as number | null,
      met: null as boolean | null,
    }));
  const opening = input.opening ?? null;
  const totals: LedgerTotals = {
    scheduledMinutes: opening?.scheduledMinutes ?? 0,
    attendedMinutes: 0,
    excusedMinutes: 0,
    excusedCreditedMinutes: 0,
    excusedUncreditedMinutes: 0,
    makeUpMinutes: 0,
    creditedMinutes: opening?.creditedMinutes ?? 0,
    openingScheduledMinutes: opening?.scheduledMinutes ?? 0,
    openingCreditedMinutes: opening?.creditedMinutes ?? 0,
    rawMinutes: 0,
    roundedMinutes: 0,
    deductedMinutes: 0,
    cappedMinutes: 0,
    pendingExceptionMinutes: 0,
    autoCheckOutMinutes: 0,
  };
  let lastDateOfAttendance: string | null = opening?.lastDateOfAttendance ?? null;
  let current = 0; // the first period whose hours are not reached
  let firstScheduledDate: string | null = null;
  let firstGapDate: string | null = null;
  let gapMinutes = 0;
  if (resume) {
    gapMinutes = resume.gapMinutes;
    Object.assign(totals, resume.totals);
    lastDateOfAttendance = resume.lastDateOfAttendance;
    current = resume.current;
    firstScheduledDate = resume.firstScheduledDate;
    firstGapDate = resume.firstGapDate;
    resume.periods.forEach((c, i) => periods[i] && Object.assign(periods[i], c));
    resume.checkpoints.forEach((c, i) => checkpoints[i] && Object.assign(checkpoints[i], c));
    // A school's given completion dates are not walked: they come from the opening balance again.
    if (opening) for (const p of periods) p.completedOnGiven = opening.periodCredits?.find((c) => c.number === p.plan.number)?.completedOn ?? null;
  } else if (opening) current = openPeriods(periods, opening, checkpoints, policy.minimumAttendancePercent);
  for (const day of days) {
    totals.scheduledMinutes += day.scheduledMinutes;
    totals.attendedMinutes += day.attendedMinutes;
    totals.excusedMinutes += day.excusedMinutes;
    totals.makeUpMinutes += day.makeUpMinutes;
    totals.rawMinutes += day.rawMinutes;
    totals.roundedMinutes += day.roundedMinutes;
    totals.deductedMinutes += day.deductedMinutes;
    totals.cappedMinutes += day.cappedMinutes;
    totals.pendingExceptionMinutes += day.pendingExceptionMinutes;
    totals.autoCheckOutMinutes += day.autoCheckOutMinutes;
    if (isAttendanceDay(day)) lastDateOfAttendance = day.date;
    // Excused minutes count toward the current period only up to its cap.
    let excusedCredited = day.excusedMinutes;
    const period = periods[Math.min(current, periods.length - 1)];
    if (period) {
      excusedCredited = Math.min(day.excusedMinutes, Math.max(0, period.excusedCap - period.excusedCredited));
      period.excusedCredited += excusedCredited;
    }
    totals.excusedCreditedMinutes += excusedCredited;
    totals.excusedUncreditedMinutes += day.excusedMinutes - excusedCredited;
    let credit = day.attendedMinutes + day.makeUpMinutes + excusedCredited;
    day.creditedMinutes = credit;
    if (day.scheduledMinutes > 0) firstScheduledDate ??= day.date;
    const gap = gapOf(day);
    if (gap > 0) firstGapDate ??= day.date;
    gapMinutes += gap;
    totals.creditedMinutes += credit;
    // Minutes beyond a period's end carry into the next; past the last period they stay with it.
    while (credit > 0 && periods.length > 0) {
      const p = periods[Math.min(current, periods.length - 1)]!;
      const room = current < periods.length ? p.endMinutes - p.startMinutes - p.credited : credit;
      const take = Math.min(room, credit);
      p.credited += take;
      credit -= take;
      if (current < periods.length && p.credited >= p.endMinutes - p.startMinutes) {
        p.hoursReachedOn ??= day.date;
        current++;
      }
    }
    for (const c of checkpoints) {
      if (c.evaluatedOn == null && totals.creditedMinutes >= c.atMinutes) {
        c.evaluatedOn = day.date;
        const ratio = totals.scheduledMinutes > 0 ? (totals.creditedMinutes / totals.scheduledMinutes) * 100 : 100;
        c.percent = round1(ratio);
        c.met = ratio >= policy.minimumAttendancePercent;
      }
    }
  }

  // A period is completed on the first day its hours are reached and its weeks (counted from the
  // student's start, cumulatively as COMPLIANCE.md's example) have elapsed, never before the last one.
  let cumulativeWeeks = 0;
  let previousCompletedOn: string | null = null;
  let previousCompleted = true;
  const paymentPeriods: PaymentPeriodProgress[] = periods.map((p, i) => {
    cumulativeWeeks += p.plan.weeks;
    const weeksEndOn = startDate ? addDays(startDate, Math.ceil(cumulativeWeeks * 7) - 1) : null;
    const startedOn = i === 0 ? startDate : previousCompletedOn ? addDays(previousCompletedOn, 1) : null;
    let completedOn: string | null = null;
    if (p.completedOnGiven && p.completedOnGiven <= asOf) completedOn = p.completedOnGiven;
    else if (previousCompleted && p.hoursReachedOn && weeksEndOn) {
      const on = p.hoursReachedOn > weeksEndOn ? p.hoursReachedOn : weeksEndOn;
      if (on <= asOf) completedOn = previousCompletedOn && previousCompletedOn > on ? previousCompletedOn : on;
    }
    const size = p.endMinutes - p.startMinutes;
    const status = completedOn ? 'completed' : (previousCompleted && startDate != null && startDate <= asOf) || p.credited > 0 ? 'in_progress' : 'not_started';
    previousCompleted = completedOn != null;
    previousCompletedOn = completedOn;
    return {
      number: p.plan.number,
      startHours: p.plan.startHours,
      endHours: p.plan.endHours,
      weeks: p.plan.weeks,
      creditedMinutes: p.credited,
      excusedCreditedMinutes: p.excusedCredited,
      excusedCapMinutes: p.excusedCap,
      status,
      completedOn,
      startedOn: status === 'not_started' ? null : startedOn,
      weeksEndOn,
      hoursRemaining: round2(Math.max(0, size - p.credited) / 60),
    };
  });

  return {
    startDate,
    lastDateOfAttendance,
    totals,
    attendancePercent: totals.scheduledMinutes > 0 ? round1((totals.creditedMinutes / totals.scheduledMinutes) * 100) : null,
    paymentPeriods,
    sapCheckpoints: checkpoints.map((c) => ({
      atHours: c.atHours,
      status: c.evaluatedOn == null ? 'pending' : c.met ? 'met' : 'not_met',
      evaluatedOn: c.evaluatedOn,
      attendancePercent: c.percent,
    })),
    days,
    firstScheduledDate,
    firstGapDate,
    carry: {
      through: asOf,
      totals: { ...totals },
      lastDateOfAttendance,
      current,
      periods: periods.map((p) => ({ credited: p.credited, excusedCredited: p.excusedCredited, hoursReachedOn: p.hoursReachedOn })),
      checkpoints: checkpoints.map((c) => ({ evaluatedOn: c.evaluatedOn, percent: c.percent, met: c.met })),
      countedThisWeek: weekCounted,
      firstScheduledDate,
      firstGapDate,
      gapMinutes,
    },
  };
}
