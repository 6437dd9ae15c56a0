import { DAY_NAMES, type Schedule } from '../../../common/schedules.ts';

/** '13:30' → '1:30 PM'. */
export function formatTime(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const suffix = h >= 12 ? 'PM' : 'AM';
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${suffix}`;
}

/** '2025-01-06' → 'Jan 6, 2025' (a calendar date: no time-zone shift). */
export function formatDate(iso: string): string {
  const [y = 1970, mo = 1, d = 1] = iso.split('-').map(Number);
  return new Date(y, mo - 1, d).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

export function dayName(day: number): string {
  return DAY_NAMES[day] ?? `Day ${day}`;
}

/** 'NUR101 · Cohort 3, Term 1' — how a schedule is named in titles. */
export function scheduleLabel(s: Pick<Schedule, 'courseCode' | 'cohortNumber' | 'termNumber'>): string {
  return `${s.courseCode} · Cohort ${s.cohortNumber}, Term ${s.termNumber}`;
}
