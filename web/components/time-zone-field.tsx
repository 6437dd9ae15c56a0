import { useId, useMemo, useState } from 'react';
import { SelectField } from './ui/select-field.tsx';
import { browserTimeZones, filterTimeZones, orderTimeZones, timeZoneLabel } from '../lib/time-zones.ts';

type TimeZoneFieldProps = {
  label: string;
  hint: string;
  value: string;
  onChange: (zone: string) => void;
  error?: string | undefined;
  disabled?: boolean | undefined;
};

/**
 * The school time-zone picker: a search box narrowing a native select (keyboard and screen-reader
 * friendly as is) that leads with the US zones and UTC. Typing picks the first match, so
 * "denver" then Tab is enough; the select still names the choice.
 */
export function TimeZoneField({ label, hint, value, onChange, error, disabled }: TimeZoneFieldProps) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const ordered = useMemo(() => orderTimeZones(browserTimeZones(), value), [value]);
  const shown = useMemo(() => filterTimeZones(ordered, query, value), [ordered, query, value]);
  const matches = query.trim() ? filterTimeZones(ordered, query).length : null;

  return (
    <div className="space-y-2">
      <div>
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
          Search time zones
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          disabled={disabled}
          placeholder="e.g. Chicago, Denver, UTC"
          aria-describedby={`${searchId}-count`}
          onChange={(e) => {
            setQuery(e.target.value);
            const first = filterTimeZones(ordered, e.target.value)[0];
            if (e.target.value.trim() && first) onChange(first);
          }}
          className="mt-1.5 block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600 disabled:bg-slate-50"
        />
        <p id={`${searchId}-count`} aria-live="polite" className="sr-only">
          {matches === null ? '' : `${matches} time zone${matches === 1 ? '' : 's'} match`}
        </p>
      </div>
      <SelectField label={label} name="timeZone" hint={hint} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} error={error}>
        {shown.map((z) => (
          <option key={z} value={z}>
            {timeZoneLabel(z)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
