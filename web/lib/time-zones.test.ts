import { describe, expect, it } from 'vitest';
import { filterTimeZones, orderTimeZones, US_TIME_ZONES } from './time-zones.ts';

const all = ['Europe/Berlin', 'America/Chicago', 'Asia/Tokyo', 'America/New_York', 'Etc/UTC', 'America/Puerto_Rico', 'Africa/Abidjan', 'Pacific/Honolulu'];

describe('orderTimeZones', () => {
  it('leads with the US zones, then UTC, then every other zone alphabetically', () => {
    const ordered = orderTimeZones(all);
    expect(ordered.slice(0, US_TIME_ZONES.length)).toEqual([...US_TIME_ZONES]);
    expect(ordered[US_TIME_ZONES.length]).toBe('UTC');
    expect(ordered.slice(US_TIME_ZONES.length + 1)).toEqual(['Africa/Abidjan', 'Asia/Tokyo', 'Europe/Berlin']);
    expect(new Set(ordered).size).toBe(ordered.length);
  });

  it('includes UTC and the US zones even when the browser lists none', () => {
    expect(orderTimeZones([])).toEqual([...US_TIME_ZONES, 'UTC']);
  });

  it('keeps a saved zone the list lacks at the top', () => {
    expect(orderTimeZones(all, 'US/Eastern')[0]).toBe('US/Eastern');
    expect(orderTimeZones(all, 'Asia/Tokyo')[0]).toBe('America/New_York');
  });

  it('covers every zone the runtime knows', () => {
    const runtime = Intl.supportedValuesOf('timeZone');
    const ordered = orderTimeZones(runtime);
    for (const z of runtime) if (z !== 'Etc/UTC') expect(ordered).toContain(z);
  });
});

describe('filterTimeZones', () => {
  const ordered = orderTimeZones(all);
  it('finds zones by every typed word, spaces for underscores, in picker order', () => {
    expect(filterTimeZones(ordered, 'new york')).toEqual(['America/New_York']);
    expect(filterTimeZones(ordered, 'AMERICA')).toEqual(US_TIME_ZONES.filter((z) => z.startsWith('America/')));
    expect(filterTimeZones(ordered, 'utc')).toEqual(['UTC']);
    expect(filterTimeZones(ordered, '  ')).toEqual(ordered);
  });

  it('keeps the selected zone first when the search misses it', () => {
    expect(filterTimeZones(ordered, 'tokyo', 'America/Chicago')).toEqual(['America/Chicago', 'Asia/Tokyo']);
    expect(filterTimeZones(ordered, 'tokyo', 'Asia/Tokyo')).toEqual(['Asia/Tokyo']);
  });
});
