import { CalendarDays } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function SchedulesPage() {
  return (
    <>
      <PageHeader title="Schedules" subtitle="Class meetings by cohort, term, day and room" />
      <EmptyState icon={CalendarDays} title="No schedules yet">
        Class schedules arrive with the schedules module.
      </EmptyState>
    </>
  );
}
