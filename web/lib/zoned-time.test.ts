import { describe, expect, it } from 'vitest';
import { schoolClock, schoolInstantIso } from './zoned-time.ts';

describe('school-local times', () => {
  it('turns a school clock time into the instant, on both sides of a daylight-saving change', () => {
    expect(schoolInstantIso('2026-03-06', '08:00', 'America/Chicago')).toBe('2026-03-06T14:00:00.000Z');
    expect(schoolInstantIso('2026-03-09', '08:00', 'America/Chicago')).toBe('2026-03-09T13:00:00.000Z');
    expect(schoolInstantIso('2026-07-01', '23:30', 'UTC')).toBe('2026-07-01T23:30:00.000Z');
  });
  it('reads an instant on the school clock', () => {
    expect(schoolClock('2026-03-09T13:00:00.000Z', 'America/Chicago')).toBe('08:00');
  });
});
