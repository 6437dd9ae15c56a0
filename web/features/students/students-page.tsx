import { GraduationCap } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function StudentsPage() {
  return (
    <>
      <PageHeader title="Students" subtitle="Student records, programs and enrollment status" />
      <EmptyState icon={GraduationCap} title="No student list yet">
        Student records arrive with the students module.
      </EmptyState>
    </>
  );
}
