import { Bar, BarChart, CartesianGrid, Cell, LabelList, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatPercent } from './format.ts';
import { rateColour, type TrendDay } from './trend-days.ts';

type TooltipProps = { active?: boolean; payload?: readonly { payload?: TrendDay }[] };

function DayTooltip({ active, payload }: TooltipProps) {
  const day = payload?.[0]?.payload;
  if (!active || !day) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      <p className="font-semibold text-slate-900">
        {day.weekday}, {day.dayLabel}
      </p>
      <p className="text-slate-700">{day.rate === null ? 'No classes' : `${formatPercent(day.rate)} · ${day.present} of ${day.total} present`}</p>
    </div>
  );
}

/**
 * The 7-day bar chart (recharts; loaded only when the Analytics tab opens). The figures it draws
 * are also written out beside it, so the chart itself is one image to assistive technology.
 */
export default function AttendanceTrendsChart({ days, average }: { days: TrendDay[]; average: number | null }) {
  return (
    <div role="img" aria-label="Bar chart of the daily attendance rate over the last 7 days" className="h-64 w-full sm:h-72" data-testid="trend-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days} margin={{ top: 24, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="weekday" tickLine={false} axisLine={{ stroke: '#cbd5e1' }} tick={{ fill: '#475569', fontSize: 12 }} interval={0} />
          <YAxis
            domain={[0, 100]}
            ticks={[0, 25, 50, 75, 100]}
            tickFormatter={(v: number) => `${v}%`}
            tickLine={false}
            axisLine={false}
            tick={{ fill: '#475569', fontSize: 12 }}
          />
          <Tooltip content={<DayTooltip />} cursor={{ fill: '#f1f5f9' }} />
          {average !== null ? <ReferenceLine y={average} stroke="#64748b" strokeDasharray="4 4" /> : null}
          <Bar dataKey="rate" radius={[4, 4, 0, 0]} maxBarSize={48} isAnimationActive={false}>
            {days.map((d) => (
              <Cell key={d.date} fill={d.rate === null ? '#cbd5e1' : rateColour(d.rate)} />
            ))}
            <LabelList
              dataKey="rate"
              position="top"
              formatter={(v: unknown) => (typeof v === 'number' ? `${Math.round(v)}%` : '')}
              fill="#334155"
              fontSize={12}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
