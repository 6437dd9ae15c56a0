import { LayoutDashboard } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/** SPEC §2 title and subtitle. Figures come only from the dashboard module, never invented here. */
export function DashboardPage() {
  return (
    <>
      <PageHeader title="System Dashboard" subtitle="Comprehensive attendance management and analytics" />
      <EmptyState icon={LayoutDashboard} title="No figures yet">
        Dashboard figures arrive with the dashboard module.
      </EmptyState>
    </>
  );
}
