import { cohortLabel, DAY_NAMES, type Schedule } from '../../common/schedules.ts';

export const dayName = (dayOfWeek: number): string => DAY_NAMES[dayOfWeek] ?? `Day ${dayOfWeek}`;

/** 'NUR101 · Cohort 3, Term 1' (or 'Cohort PN-26A') — how a schedule is named in titles. */
export function scheduleLabel(s: Pick<Schedule, 'courseCode' | 'cohortNumber' | 'termNumber'> & { cohortName?: string | null }): string {
  return `${s.courseCode} · Cohort ${cohortLabel(s)}, Term ${s.termNumber}`;
}
