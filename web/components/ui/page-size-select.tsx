import { useId } from 'react';

/** "Rows per page" for paged tables, labelled for screen readers; a 44 px target on a phone. */
export function PageSizeSelect({ value, options, onChange }: { value: number; options: readonly number[]; onChange: (size: number) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="whitespace-nowrap">
        Rows per page
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-11 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm sm:h-8"
      >
        {options.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
