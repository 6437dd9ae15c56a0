import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { QrSession } from '../../../common/attendance.ts';
import type { Schedule } from '../../../common/schedules.ts';
import { ATTENDANCE_SCREEN } from '../../../common/messages.ts';
import { TodaysClassesCard } from '../../components/todays-classes-card.tsx';
import { MeetingsToReview } from './meetings-to-review.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { toast } from '../../lib/toast.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { ActiveSessionsList } from './active-sessions-list.tsx';
import { useSchedules } from '../../lib/shared-queries.ts';
import { fetchStartCheck, isOpen, useActiveSessions, useEndSession, useStartSession } from './attendance-api.ts';
import { QrSessionPanel } from './qr-session-panel.tsx';
import { RosterPanel } from './roster-panel.tsx';
import { PICKER_NAME, SchedulePicker } from './schedule-picker.tsx';
import { useNowAfter } from '../../lib/server-clock.ts';
import { formatDate } from '../../lib/format.ts';
import { useTodaysClasses } from '../../lib/todays-classes.ts';
import { isInstructor } from '../../../common/roles.ts';

/**
 * Take Attendance (SPEC §2 '{product}'): choose a class, start a QR session, show the rotating
 * code (here or on a projector), watch the roster fill in, override where needed, end the session.
 * The chosen class lives in the URL (?schedule=), so a reload keeps the screen as it was; so does a
 * past meeting picked for review (?date=). ?start=1 (Start Session on a Today card) starts the
 * chosen class's session once. Starting when the class does not meet now, and ending, ask first.
 */
export function TakeAttendancePage() {
  const user = useSignedInUser();
  const isAdmin = !isInstructor(user);
  const [params, setParams] = useSearchParams();
  const schedules = useSchedules();
  const todays = useTodaysClasses();
  const today = todays.data?.date ?? null;
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

  // A past meeting picked for review; today's (or the running session's) otherwise.
  const dateParam = params.get('date');
  const reviewDate = dateParam && /^\d{4}-\d{2}-\d{2}$/.test(dateParam) && (today == null || dateParam < today) ? dateParam : null;

  const updateParams = (change: (p: URLSearchParams) => void) =>
    setParams(
      (p) => {
        change(p);
        return p;
      },
      { replace: true },
    );
  const select = (id: number) => updateParams((p) => p.set('schedule', String(id)));
  const pickDate = (date: string | null) => updateParams((p) => (date ? p.set('date', date) : p.delete('date')));

  // Start Session asks the server first whether the class meets now; if not, the instructor confirms.
  const [offSchedule, setOffSchedule] = useState<{ schedule: Schedule; warning: string; date: string } | null>(null);
  const startCheck = useMutation({
    mutationFn: (schedule: Schedule) => fetchStartCheck(schedule.id),
    onSuccess: (check, schedule) => {
      if (check.warning) setOffSchedule({ schedule, warning: check.warning, date: check.sessionDate });
      else start.mutate(schedule.id);
    },
    // Unanswered: start anyway, the start itself says what is wrong.
    onError: (_error, schedule) => start.mutate(schedule.id),
  });
  const requestStart = (schedule: Schedule) => startCheck.mutate(schedule);

  const onStart = () => {
    if (!selected) {
      toast({ title: 'No Schedule Selected', description: 'Please select a class schedule first.', variant: 'destructive' });
      document.querySelector<HTMLSelectElement>(`select[name="${PICKER_NAME}"]`)?.focus();
      return;
    }
    requestStart(selected);
  };

  // ?start=1 from a Today card: start once the class and its sessions are known, then forget it.
  const startParam = params.get('start') === '1';
  const startHandled = useRef(false);
  useEffect(() => {
    if (!startParam) {
      startHandled.current = false;
      return;
    }
    if (!selected || active.isPending || startHandled.current) return;
    startHandled.current = true;
    updateParams((p) => {
      p.delete('start');
      p.delete('date');
    });
    if (!sessionOpen) requestStart(selected);
  });

  // End Session asks first: the code stops working for students still arriving.
  const [ending, setEnding] = useState<QrSession | null>(null);
  const onEnd = (session: QrSession) => setEnding(session);
  const confirmEnd = () => {
    if (ending) end.mutate(ending, { onSettled: () => setEnding(null) });
  };

  return (
    <>
      <PageHeader title={ATTENDANCE_SCREEN} subtitle="Generate QR codes and manage class attendance" />
      <TodaysClassesCard showInstructor={isAdmin} />
      <MeetingsToReview />
      {schedules.isError || active.isError ? (
        <Alert className="mb-6">
          {schedules.isError ? 'Your class schedules could not be loaded.' : 'The list of active sessions could not be loaded.'} Reload the page to try again.
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
            starting={start.isPending || startCheck.isPending}
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
          {/* The paper fallback (decision 032): features/print-sheets. */}
          <Link
            to={`/attendance/sheet?scheduleId=${selected.id}${(reviewDate ?? current?.sessionDate) ? `&date=${reviewDate ?? current?.sessionDate}` : ''}`}
            className={buttonClasses('secondary', 'sm', 'mb-3')}
          >
            Print sign-in sheet
          </Link>
          <RosterPanel
            schedule={selected}
            date={reviewDate ?? current?.sessionDate ?? null}
            live={sessionOpen && reviewDate == null}
            today={today}
            onPickDate={pickDate}
          />
        </div>
      ) : null}
      <ConfirmDialog
        open={offSchedule != null}
        onOpenChange={(open) => !open && setOffSchedule(null)}
        title="This class doesn’t meet now"
        confirmLabel="Start anyway"
        destructive={false}
        onConfirm={() => {
          if (offSchedule) start.mutate(offSchedule.schedule.id);
          setOffSchedule(null);
        }}
      >
        {offSchedule ? (
          <>
            {offSchedule.warning} Start a session for {offSchedule.schedule.courseName} anyway? Attendance is recorded for{' '}
            {formatDate(offSchedule.date, 'long')}.
          </>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={ending != null}
        onOpenChange={(open) => !open && setEnding(null)}
        title="End this session?"
        confirmLabel="End Session"
        pendingLabel="Ending…"
        isPending={end.isPending}
        onConfirm={confirmEnd}
      >
        {ending ? (
          <>Students can no longer check in to {ending.courseName} with this code. Anyone not checked in stays without a record until you override it.</>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
