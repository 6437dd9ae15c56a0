import type { ComponentProps } from 'react';
import { SelectField } from '../ui/select-field.tsx';
import { useUsers } from '../../lib/shared-queries.ts';
import { isInstructor } from '../../../common/roles.ts';

type Props = Omit<ComponentProps<typeof SelectField>, 'label' | 'children'> & {
  /** The instructor already chosen stays offered even if their account was deactivated since. */
  currentId?: number | null | undefined;
};

/** The Instructor choice of the schedule form: "No instructor yet" or an active instructor. */
export function InstructorSelect({ currentId, ...props }: Props) {
  const users = useUsers();
  const instructors = (users.data ?? []).filter((u) => isInstructor(u) && (u.isActive || u.id === currentId));
  return (
    <SelectField label="Instructor" {...props}>
      <option value="">No instructor yet</option>
      {instructors.map((u) => (
        <option key={u.id} value={u.id}>
          {u.firstName} {u.lastName}
        </option>
      ))}
    </SelectField>
  );
}
