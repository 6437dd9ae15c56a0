import { parseArgs } from 'node:util';

/** `--first-name X` style flags for the CLI commands, with a clear message for a missing one. */
export function readFlags<const K extends string>(names: readonly K[], required: readonly K[]): Record<K, string | undefined> {
  const { values } = parseArgs({
    options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    strict: true,
  });
  const missing = required.filter((n) => !values[n]);
  if (missing.length > 0) {
    console.error(`Missing ${missing.map((m) => `--${m}`).join(', ')}`);
    process.exit(2);
  }
  return values as Record<K, string | undefined>;
}
