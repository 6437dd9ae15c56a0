/**
 * Drizzle's node-postgres driver hands raw `db.execute` rows their timestamps as strings (its query
 * builder maps them to Dates). These turn either form into what the code needs.
 */
export function asDate(v: Date | string): Date;
export function asDate(v: Date | string | null): Date | null;
export function asDate(v: Date | string | null): Date | null {
  if (v == null) return null;
  return v instanceof Date ? v : new Date(v.includes('T') || v.endsWith('Z') || /[+-]\d\d(:?\d\d)?$/.test(v) ? v : `${v}Z`);
}

export function isoOrNull(v: Date | string | null): string | null {
  return v == null ? null : asDate(v).toISOString();
}
