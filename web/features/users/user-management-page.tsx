import { Users } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function UserManagementPage() {
  return (
    <>
      <PageHeader title="User Management" subtitle="Staff accounts, roles and access" />
      <EmptyState icon={Users} title="No user list yet">
        The staff account list arrives with the user management module.
      </EmptyState>
    </>
  );
}
