import { describe, expect, it } from 'vitest';
import { classSpan, liveMinutes } from './live-minutes.ts';

describe('minutes so far / projected', () => {
  // Monday 08:00–12:00 in Chicago (UTC−6 in March before the change): 14:00Z–18:00Z.
  const span = classSpan('2026-03-02', '08:00', '12:00', 'America/Chicago');
  const at = (iso: string) => Date.parse(iso);

  it('places the class on the school’s clock, across midnight too', () => {
    expect(span).toEqual({ start: at('2026-03-02T14:00:00Z'), end: at('2026-03-02T18:00:00Z') });
    expect(classSpan('2026-03-02', '22:00', '02:00', 'UTC')).toEqual({ start: at('2026-03-02T22:00:00Z'), end: at('2026-03-03T02:00:00Z') });
  });

  it('counts from the check-in (or the start, if earlier) to now, and to the end if the student stays', () => {
    expect(liveMinutes({ scanInTime: '2026-03-02T14:10:00Z', scanOutTime: null }, span, at('2026-03-02T14:45:30Z'))).toEqual({ soFar: 35, projected: 230 });
    expect(liveMinutes({ scanInTime: '2026-03-02T13:50:00Z', scanOutTime: null }, span, at('2026-03-02T14:20:00Z'))).toEqual({ soFar: 20, projected: 240 });
    // Before class starts: nothing yet.
    expect(liveMinutes({ scanInTime: '2026-03-02T13:50:00Z', scanOutTime: null }, span, at('2026-03-02T13:55:00Z'))).toEqual({ soFar: 0, projected: 240 });
  });

  it('stops at the check-out, and says nothing without a check-in', () => {
    expect(liveMinutes({ scanInTime: '2026-03-02T14:00:00Z', scanOutTime: '2026-03-02T15:00:00Z' }, span, at('2026-03-02T16:00:00Z'))).toEqual({
      soFar: 60,
      projected: 60,
    });
    expect(liveMinutes({ scanInTime: null, scanOutTime: null }, span, at('2026-03-02T16:00:00Z'))).toBeNull();
  });
});
