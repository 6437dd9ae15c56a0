import { ScrollText } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function AuditLogsPage() {
  return (
    <>
      <PageHeader title="Audit Logs" subtitle="Who changed what, when, and from where" />
      <EmptyState icon={ScrollText} title="No audit list yet">
        The searchable audit trail arrives with the audit logs module.
      </EmptyState>
    </>
  );
}
