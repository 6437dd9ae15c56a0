import { describe, expect, it } from 'vitest';
import { checkInStatus, classWindow, leftEarly, minutesAttended, scheduledMinutes, statusAfterCheckOut } from './rules.ts';

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
});
