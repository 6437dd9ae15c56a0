import { useSearchParams } from 'react-router';
import type { QrSession } from '../../../common/attendance.ts';
import { ATTENDANCE_SCREEN } from '../../../common/messages.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { toast } from '../../lib/toast.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { ActiveSessionsList } from './active-sessions-list.tsx';
import { useSchedules } from '../../lib/shared-queries.ts';
import { isOpen, useActiveSessions, useEndSession, useStartSession } from './attendance-api.ts';
import { QrSessionPanel } from './qr-session-panel.tsx';
import { RosterPanel } from './roster-panel.tsx';
import { PICKER_NAME, SchedulePicker } from './schedule-picker.tsx';
import { useNowAfter } from '../../lib/server-clock.ts';

/**
 * Take Attendance (SPEC §2 '{product}'): choose a class, start a QR session, show the rotating
 * code (here or on a projector), watch the roster fill in, override where needed, end the session.
 * The chosen class lives in the URL (?schedule=), so a reload keeps the screen as it was.
 */
export function TakeAttendancePage() {
  const user = useSignedInUser();
  const isAdmin = user.role !== 'instructor';
  const [params, setParams] = useSearchParams();
  const schedules = useSchedules();
  const active = useActiveSessions();
  const start = useStartSession();
  const end = useEndSession();
  const sessions = active.data ?? [];
  // Re-render when a session expires (each countdown ticks on its own, not the whole screen).
  const now = useNowAfter(sessions.map((s) => s.expiresAt));
  const openSessions = sessions.filter((s) => isOpen(s, now));
  const allSchedules = (schedules.data ?? []).filter((s) => s.isActive);

  // The class in the URL; else the class of a running session (coming back to the screen);
  // else the only class an instructor teaches.
  const fromUrl = Number(params.get('schedule'));
  const selectedId =
    allSchedules.find((s) => s.id === fromUrl)?.id ??
    openSessions.find((s) => allSchedules.some((x) => x.id === s.scheduleId))?.scheduleId ??
    (allSchedules.length === 1 ? allSchedules[0]!.id : null);
  const selected = allSchedules.find((s) => s.id === selectedId) ?? null;

  // The newest session of the chosen class still in the list: open, or just expired (shown as Expired).
  const current: QrSession | null = selected ? (sessions.find((s) => s.scheduleId === selected.id) ?? null) : null;
  const sessionOpen = current != null && isOpen(current, now);

  const select = (id: number) =>
    setParams(
      (p) => {
        p.set('schedule', String(id));
        return p;
      },
      { replace: true },
    );

  const onStart = () => {
    if (!selected) {
      toast({ title: 'No Schedule Selected', description: 'Please select a class schedule first.', variant: 'destructive' });
      document.querySelector<HTMLSelectElement>(`select[name="${PICKER_NAME}"]`)?.focus();
      return;
    }
    start.mutate(selected.id);
  };

  const onEnd = (session: QrSession) => end.mutate(session);

  return (
    <>
      <PageHeader title={ATTENDANCE_SCREEN} subtitle="Generate QR codes and manage class attendance" />
      {schedules.isError || active.isError ? (
        <Alert className="mb-6">
          {schedules.isError ? 'Your class schedules could not be loaded.' : 'The list of active sessions could not be loaded.'} Reload the page to try
          again.
        </Alert>
      ) : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="space-y-6">
          <SchedulePicker
            schedules={allSchedules}
            loading={schedules.isPending}
            selected={selected}
            onSelect={select}
            showInstructor={isAdmin}
            sessionOpen={sessionOpen}
            starting={start.isPending}
            ending={end.isPending}
            onStart={onStart}
            onEnd={() => current && onEnd(current)}
          />
          <ActiveSessionsList
            sessions={openSessions}
            selectedScheduleId={selected?.id ?? null}
            showInstructor={isAdmin}
            onShow={(s) => select(s.scheduleId)}
            onEnd={onEnd}
            endingId={end.isPending ? (end.variables?.sessionId ?? null) : null}
          />
        </div>
        <QrSessionPanel session={current} hasSchedule={selected != null} />
      </div>
      {selected ? (
        <div className="mt-6">
          <RosterPanel schedule={selected} date={current?.sessionDate ?? null} live={sessionOpen} />
        </div>
      ) : null}
    </>
  );
}
