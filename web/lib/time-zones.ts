/** The United States' zones (and Puerto Rico), east to west: most schools pick one of these. */
export const US_TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Puerto_Rico',
] as const;

/** Every IANA zone this browser knows (none on very old browsers). */
export function browserTimeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/**
 * The picker's order: the US zones, then UTC, then every other zone alphabetically. A current
 * value the list lacks (an older alias saved earlier) is kept at the very top so it stays selected.
 */
export function orderTimeZones(all: readonly string[], current?: string): string[] {
  const lead: string[] = [...US_TIME_ZONES, 'UTC'];
  const leading = new Set(lead);
  const rest = [...new Set(all)].filter((z) => !leading.has(z) && z !== 'Etc/UTC').sort();
  const ordered = [...lead, ...rest];
  return current && !ordered.includes(current) ? [current, ...ordered] : ordered;
}

/** A zone as people read it: 'America/Los_Angeles' → 'America/Los Angeles'. */
export const timeZoneLabel = (zone: string): string => zone.replaceAll('_', ' ');

/**
 * Zones whose name contains every word typed ('los ang', 'new york', 'utc'), in picker order;
 * the selected zone always stays so the select keeps showing it.
 */
export function filterTimeZones(ordered: readonly string[], query: string, selected?: string): string[] {
  const words = query.toLowerCase().replaceAll('_', ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...ordered];
  const hits = ordered.filter((z) => {
    const name = timeZoneLabel(z).toLowerCase();
    return words.every((w) => name.includes(w));
  });
  return selected && !hits.includes(selected) && ordered.includes(selected) ? [selected, ...hits] : hits;
}
