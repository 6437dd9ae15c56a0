// Times of day in the school's time zone, whatever the browser's: a corrected punch is typed as
// the school's clock showed it, and sent as an instant.

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - instant;
}

/** The instant (ISO) when the school's clock shows `hhmm` on `date` (YYYY-MM-DD). */
export function schoolInstantIso(date: string, hhmm: string, timeZone: string): string {
  const wall = Date.parse(`${date}T${hhmm}:00Z`);
  let instant = wall - offsetMs(wall, timeZone);
  // Once more, in case the first guess fell on the other side of a daylight-saving change.
  instant = wall - offsetMs(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The school's clock (HH:MM) at an instant. */
export function schoolClock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(iso));
}
