import { DAY_NAMES, type Schedule } from '../../common/schedules.ts';

export const dayName = (dayOfWeek: number): string => DAY_NAMES[dayOfWeek] ?? `Day ${dayOfWeek}`;

/** 'NUR101 · Cohort 3, Term 1' — how a schedule is named in titles. */
export function scheduleLabel(s: Pick<Schedule, 'courseCode' | 'cohortNumber' | 'termNumber'>): string {
  return `${s.courseCode} · Cohort ${s.cohortNumber}, Term ${s.termNumber}`;
}
