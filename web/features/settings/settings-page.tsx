import { Settings } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" subtitle="Attendance rules, notifications, security and system options" />
      <EmptyState icon={Settings} title="No settings forms yet">
        The settings forms arrive with the settings module.
      </EmptyState>
    </>
  );
}
