/** One field of an audit entry's old and new values, for the details dialog's diff. */
export type DiffRow = {
  field: string;
  before: string | undefined;
  after: string | undefined;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nested objects become dotted paths ("attendance.qrCodeExpirationMinutes"); arrays stay whole. */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0 && prefix) out.set(prefix, value);
    for (const key of keys) flatten(value[key], prefix ? `${prefix}.${key}` : key, out);
  } else if (value !== undefined && (prefix || value !== null)) {
    out.set(prefix || 'value', value);
  }
  return out;
}

function displayValue(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Field-by-field comparison of oldValues and newValues, in the order the fields first appear. */
export function diffValues(oldValues: unknown, newValues: unknown): DiffRow[] {
  const before = flatten(oldValues);
  const after = flatten(newValues);
  const fields = [...new Set([...before.keys(), ...after.keys()])];
  return fields.map((field) => {
    const hasBefore = before.has(field);
    const hasAfter = after.has(field);
    const b = hasBefore ? displayValue(before.get(field)) : undefined;
    const a = hasAfter ? displayValue(after.get(field)) : undefined;
    const change = !hasBefore
      ? 'added'
      : !hasAfter
        ? 'removed'
        : JSON.stringify(before.get(field)) === JSON.stringify(after.get(field))
          ? 'unchanged'
          : 'changed';
    return { field, before: b, after: a, change };
  });
}

export const hasDetails = (e: { oldValues: unknown; newValues: unknown }): boolean => e.oldValues != null || e.newValues != null;
