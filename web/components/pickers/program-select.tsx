import type { ComponentProps } from 'react';
import type { Program } from '../../../common/programs.ts';
import { SelectField } from '../ui/select-field.tsx';
import { ToolbarSelect } from '../ui/toolbar.tsx';
import { usePrograms } from '../../lib/shared-queries.ts';

/** One <option> per program, valued by its id. */
function programOptions(programs: Program[] | undefined) {
  return (programs ?? []).map((p) => (
    <option key={p.id} value={p.id}>
      {p.programName}
    </option>
  ));
}

/** The Program choice of the student and course forms: "No program" or one of GET /api/programs. */
export function ProgramSelect(props: Omit<ComponentProps<typeof SelectField>, 'label' | 'children' | 'hint'>) {
  const programs = usePrograms();
  return (
    <SelectField label="Program" {...props} hint={programs.isError ? 'Programs could not be loaded.' : undefined}>
      <option value="">No program</option>
      {programOptions(programs.data)}
    </SelectField>
  );
}

/** A list's Program filter in its Toolbar: "All programs" ('') or a program's id. */
export function ProgramFilter({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const programs = usePrograms();
  return (
    <ToolbarSelect id={id} label="Program" value={value} onChange={onChange}>
      <option value="">All programs</option>
      {programOptions(programs.data)}
    </ToolbarSelect>
  );
}
