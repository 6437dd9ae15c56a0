import { Database } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function DataManagementPage() {
  return (
    <>
      <PageHeader
        title="Data Management & SIS Integration"
        subtitle="Import school data from CSV and export attendance for your SIS"
      />
      <EmptyState icon={Database} title="No imports yet">
        The upload wizard, CSV templates and attendance export arrive with the data management module.
      </EmptyState>
    </>
  );
}
