import { QrCode } from 'lucide-react';
import { ATTENDANCE_SCREEN } from '../../../common/messages.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function TakeAttendancePage() {
  return (
    <>
      <PageHeader title={ATTENDANCE_SCREEN} subtitle="Generate QR codes and manage class attendance" />
      <EmptyState icon={QrCode} title="No Active QR Session">
        Starting QR sessions for your class schedules arrives with the attendance module.
      </EmptyState>
    </>
  );
}
