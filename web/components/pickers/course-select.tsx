import type { ComponentProps } from 'react';
import { SelectField } from '../ui/select-field.tsx';
import { useCourses } from '../../lib/shared-queries.ts';

/** The Course choice of the schedule form: every course of GET /api/courses, inactive ones marked. */
export function CourseSelect(props: Omit<ComponentProps<typeof SelectField>, 'label' | 'children'>) {
  const courses = useCourses();
  return (
    <SelectField label="Course" {...props}>
      <option value="" disabled>
        {courses.isLoading ? 'Loading courses…' : 'Choose a course'}
      </option>
      {(courses.data ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {c.courseCode} — {c.courseName}
          {c.isActive ? '' : ' (inactive)'}
        </option>
      ))}
    </SelectField>
  );
}
