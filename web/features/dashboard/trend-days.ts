import type { Analytics } from './dashboard-api.ts';

export type TrendDay = {
  date: string;
  weekday: string;
  dayLabel: string;
  /** null when no class met that day: nothing to rate, not 0 %. */
  rate: number | null;
  present: number;
  total: number;
};

const weekdayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function trendDays(trends: Analytics['attendanceTrends']): TrendDay[] {
  return trends.map((d) => {
    const t = Date.parse(`${d.date}T00:00:00Z`);
    return {
      date: d.date,
      weekday: Number.isNaN(t) ? d.date : weekdayFormat.format(t),
      dayLabel: Number.isNaN(t) ? d.date : dayFormat.format(t),
      rate: d.totalStudents > 0 ? d.attendanceRate : null,
      present: d.presentStudents,
      total: d.totalStudents,
    };
  });
}

/** Highest, lowest and average daily rate over the days that had classes. */
export function trendSummary(days: TrendDay[]): { highest: TrendDay | null; lowest: TrendDay | null; average: number | null; classDays: number } {
  const rated = days.filter((d): d is TrendDay & { rate: number } => d.rate !== null);
  if (rated.length === 0) return { highest: null, lowest: null, average: null, classDays: 0 };
  let highest = rated[0]!;
  let lowest = rated[0]!;
  for (const d of rated) {
    if (d.rate > highest.rate) highest = d;
    if (d.rate < lowest.rate) lowest = d;
  }
  const average = Math.round((rated.reduce((sum, d) => sum + d.rate, 0) / rated.length) * 10) / 10;
  return { highest, lowest, average, classDays: rated.length };
}

/** Bar colour by the school's bands (PRODUCT: 80 % required; 90 % the target). */
export function rateColour(rate: number): string {
  return rate >= 90 ? '#047857' : rate >= 80 ? '#1d4ed8' : rate >= 70 ? '#b45309' : '#b91c1c';
}
