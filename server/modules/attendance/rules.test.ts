import { describe, expect, it } from 'vitest';
import { checkInStatus, classWindow, leftEarly, minutesAttended, scheduledBreakIntervals, scheduledMinutes, statusAfterCheckOut } from './rules.ts';

const at = (iso: string) => new Date(iso);

describe('attendance rules', () => {
  const w = classWindow('2026-03-02', '08:00', '12:00', 'America/Chicago'); // CST, UTC-6

  it('places the class in the school time zone', () => {
    expect(w.start.toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(w.end.toISOString()).toBe('2026-03-02T18:00:00.000Z');
    expect(scheduledMinutes(w)).toBe(240);
  });

  it('is present exactly at the late threshold and late one minute after', () => {
    expect(checkInStatus(at('2026-03-02T14:10:00Z'), w, 10)).toBe('present');
    expect(checkInStatus(at('2026-03-02T14:10:59Z'), w, 10)).toBe('late');
    expect(checkInStatus(at('2026-03-02T14:11:00Z'), w, 10)).toBe('late');
    expect(checkInStatus(at('2026-03-02T13:45:00Z'), w, 10)).toBe('present');
    expect(checkInStatus(at('2026-03-02T14:00:01Z'), w, 0)).toBe('late');
  });

  it('marks leaving before end − threshold as incomplete, at the threshold as complete', () => {
    expect(leftEarly(at('2026-03-02T17:50:00Z'), w, 10)).toBe(false);
    expect(leftEarly(at('2026-03-02T17:49:00Z'), w, 10)).toBe(true);
    expect(statusAfterCheckOut('late', at('2026-03-02T17:49:00Z'), w, 10)).toBe('incomplete');
    expect(statusAfterCheckOut('present', at('2026-03-02T17:55:00Z'), w, 10)).toBe('present');
    expect(statusAfterCheckOut('excused', at('2026-03-02T15:00:00Z'), w, 10)).toBe('excused');
  });

  it('counts only minutes inside the class', () => {
    expect(minutesAttended(at('2026-03-02T13:30:00Z'), at('2026-03-02T18:30:00Z'), w)).toBe(240);
    expect(minutesAttended(at('2026-03-02T14:12:30Z'), at('2026-03-02T17:00:00Z'), w)).toBe(167);
    expect(minutesAttended(at('2026-03-02T14:12:00Z'), null, w)).toBe(228); // no check-out: counted to the end
    expect(minutesAttended(at('2026-03-02T19:00:00Z'), null, w)).toBe(0);
  });

  it('handles a class that crosses midnight', () => {
    const night = classWindow('2026-03-02', '22:00', '02:00', 'America/Chicago');
    expect(night.start.toISOString()).toBe('2026-03-03T04:00:00.000Z');
    expect(night.end.toISOString()).toBe('2026-03-03T08:00:00.000Z');
    expect(scheduledMinutes(night)).toBe(240);
    expect(checkInStatus(at('2026-03-03T04:10:00Z'), night, 10)).toBe('present');
    expect(minutesAttended(at('2026-03-03T05:00:00Z'), at('2026-03-03T07:30:00Z'), night)).toBe(150);
  });

  it('gets daylight-saving days right (2026-03-08 spring forward, 2026-11-01 fall back in Chicago)', () => {
    const spring = classWindow('2026-03-08', '01:00', '04:00', 'America/Chicago');
    // 01:00 CST = 07:00Z; 04:00 CDT = 09:00Z: the wall clock says 3 hours, two really pass.
    expect(spring.start.toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(spring.end.toISOString()).toBe('2026-03-08T09:00:00.000Z');
    expect(scheduledMinutes(spring)).toBe(120);
    const fall = classWindow('2026-11-01', '00:30', '03:00', 'America/Chicago');
    expect(scheduledMinutes(fall)).toBe(210);
    const morning = classWindow('2026-03-09', '08:00', '12:00', 'America/Chicago');
    expect(morning.start.toISOString()).toBe('2026-03-09T13:00:00.000Z'); // CDT, UTC-5
    expect(checkInStatus(at('2026-03-09T13:10:00Z'), morning, 10)).toBe('present');
  });

  describe('breaks are not scheduled time (decision 052)', () => {
    const ms = (iso: string) => Date.parse(iso);
    // 08:00–12:00 CST with a morning break 10:00–10:15 and lunch 11:00–11:30.
    const breaks = [
      { start: '11:00', end: '11:30' },
      { start: '10:00', end: '10:15' },
    ];
    const withBreaks = classWindow('2026-03-02', '08:00', '12:00', 'America/Chicago', breaks);

    it('places scheduled breaks as instants of the meeting, in order', () => {
      expect(scheduledBreakIntervals('2026-03-02', '08:00', '12:00', breaks, 'America/Chicago')).toEqual([
        [ms('2026-03-02T16:00:00Z'), ms('2026-03-02T16:15:00Z')],
        [ms('2026-03-02T17:00:00Z'), ms('2026-03-02T17:30:00Z')],
      ]);
      expect(withBreaks.breaks).toHaveLength(2);
      // No breaks: the window is the class, as before.
      expect(classWindow('2026-03-02', '08:00', '12:00', 'America/Chicago').breaks).toBeUndefined();
    });

    it('leaves them out of the scheduled minutes: 240 − 15 − 30 = 195', () => {
      expect(scheduledMinutes(withBreaks)).toBe(195);
    });

    it('leaves an instructor-led break out too, a minute in both counted once', () => {
      // 09:50–10:10 overlaps the 10:00 break by 10 minutes: 20 − 10 = 10 more minutes out.
      expect(scheduledMinutes(withBreaks, [[ms('2026-03-02T15:50:00Z'), ms('2026-03-02T16:10:00Z')]])).toBe(185);
      // A break before the class and one past its end count only inside it: 07:50–08:05 and 11:55–12:30.
      expect(
        scheduledMinutes(withBreaks, [
          [ms('2026-03-02T13:50:00Z'), ms('2026-03-02T14:05:00Z')],
          [ms('2026-03-02T17:55:00Z'), ms('2026-03-02T18:30:00Z')],
        ]),
      ).toBe(185);
      expect(scheduledMinutes(w, [[ms('2026-03-02T16:02:00Z'), ms('2026-03-02T16:20:00Z')]])).toBe(222);
    });

    it('does not credit the minutes of a scheduled break', () => {
      // 08:00–12:00 present the whole class: 195 minutes, the scheduled ones.
      expect(minutesAttended(at('2026-03-02T14:00:00Z'), at('2026-03-02T18:00:00Z'), withBreaks)).toBe(195);
      // 09:55:30–10:20: 4.5 before the break, 5 after it: 9 whole minutes.
      expect(minutesAttended(at('2026-03-02T15:55:30Z'), at('2026-03-02T16:20:00Z'), withBreaks)).toBe(9);
      // Inside the break only: nothing.
      expect(minutesAttended(at('2026-03-02T16:01:00Z'), at('2026-03-02T16:14:00Z'), withBreaks)).toBe(0);
    });

    it('places a break after midnight in a class that crosses it', () => {
      const night = classWindow('2026-03-02', '22:00', '02:00', 'America/Chicago', [
        { start: '23:45', end: '00:15' },
        { start: '01:00', end: '01:10' },
      ]);
      expect(night.breaks).toEqual([
        [ms('2026-03-03T05:45:00Z'), ms('2026-03-03T06:15:00Z')],
        [ms('2026-03-03T07:00:00Z'), ms('2026-03-03T07:10:00Z')],
      ]);
      expect(scheduledMinutes(night)).toBe(200);
    });

    it('cuts a stored break that no longer fits the class times to the class', () => {
      // Class shortened to 08:00–10:05 with the 10:00–10:15 break kept: 5 minutes of it are in the class.
      expect(scheduledMinutes(classWindow('2026-03-02', '08:00', '10:05', 'America/Chicago', [{ start: '10:00', end: '10:15' }]))).toBe(120);
      expect(scheduledMinutes(classWindow('2026-03-02', '08:00', '09:00', 'America/Chicago', [{ start: '10:00', end: '10:15' }]))).toBe(60);
    });
  });
});
