import type { ComponentProps } from 'react';
import { SelectField } from '../ui/select-field.tsx';
import { usePrograms } from '../../lib/shared-queries.ts';

/** The Program choice of the student and course forms: "No program" or one of GET /api/programs. */
export function ProgramSelect(props: Omit<ComponentProps<typeof SelectField>, 'label' | 'children' | 'hint'>) {
  const programs = usePrograms();
  return (
    <SelectField label="Program" {...props} hint={programs.isError ? 'Programs could not be loaded.' : undefined}>
      <option value="">No program</option>
      {(programs.data ?? []).map((p) => (
        <option key={p.id} value={p.id}>
          {p.programName}
        </option>
      ))}
    </SelectField>
  );
}
