import { BookOpen } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function CoursesPage() {
  return (
    <>
      <PageHeader title="Courses" subtitle="Course catalog, clock hours and prerequisites" />
      <EmptyState icon={BookOpen} title="No course list yet">
        The course catalog arrives with the courses module.
      </EmptyState>
    </>
  );
}
