import { describe, expect, it } from 'vitest';
import { gettingStartedSteps } from './getting-started.ts';

const empty = {
  timeZoneChosen: false,
  timeZone: 'America/Chicago',
  schoolNamed: false,
  programs: 0,
  courses: 0,
  students: 0,
  instructors: 0,
  schedules: 0,
  attendanceRecords: 0,
};

describe('gettingStartedSteps', () => {
  it('lists the six first-run steps in order, none done in an empty school', () => {
    const steps = gettingStartedSteps(empty);
    expect(steps.map((s) => s.title)).toEqual([
      'Name your school',
      'School time zone',
      'Programs and courses',
      'Import or add people',
      'First schedule',
      'Try a check-in',
    ]);
    expect(steps.every((s) => !s.done)).toBe(true);
    expect(steps[1]!.detail).toContain('America/Chicago'.replace('_', ' '));
    // The name is printed on official papers (decision 045); the step leads to where it is set.
    expect(steps[0]!.links).toEqual([{ to: '/settings?tab=system', label: 'Settings › System' }]);
  });

  it('ticks each step from the counts', () => {
    const steps = gettingStartedSteps({
      ...empty,
      timeZoneChosen: true,
      programs: 1,
      courses: 2,
      students: 30,
      instructors: 0,
      schedules: 1,
      attendanceRecords: 0,
    });
    expect(steps.map((s) => s.done)).toEqual([false, true, true, false, true, false]);
    expect(gettingStartedSteps({ ...empty, schoolNamed: true })[0]!.done).toBe(true);
    const all = gettingStartedSteps({
      ...empty,
      schoolNamed: true,
      timeZoneChosen: true,
      programs: 1,
      courses: 1,
      students: 1,
      instructors: 1,
      schedules: 1,
      attendanceRecords: 1,
    });
    expect(all.every((s) => s.done)).toBe(true);
  });
});
