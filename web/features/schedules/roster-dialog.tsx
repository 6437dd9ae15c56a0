import { useCallback, useMemo } from 'react';
import type { Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { RosterAddStudents } from './roster-add-students.tsx';
import { RosterTable } from './roster-table.tsx';
import { formatClock } from '../../lib/format.ts';
import { dayName, scheduleLabel } from '../../lib/schedule-format.ts';
import { useRemoveFromRoster, useRoster, type RosterEntry } from './schedules-api.ts';

/** A schedule's roster: who is expected in class, with remove and add. */
export function RosterDialog({ schedule, onClose }: { schedule: Schedule | null; onClose: () => void }) {
  return (
    <Modal
      open={schedule !== null}
      onOpenChange={(open) => !open && onClose()}
      title={schedule ? `Roster: ${scheduleLabel(schedule)}` : 'Roster'}
      description={
        schedule ? `${schedule.courseName}, ${dayName(schedule.dayOfWeek)} ${formatClock(schedule.startTime)} – ${formatClock(schedule.endTime)}` : undefined
      }
      size="xl"
    >
      {schedule ? <RosterBody scheduleId={schedule.id} /> : null}
    </Modal>
  );
}

function RosterBody({ scheduleId }: { scheduleId: number }) {
  const roster = useRoster(scheduleId);
  const remove = useRemoveFromRoster(scheduleId);
  const entries = useMemo(() => roster.data ?? [], [roster.data]);
  const onRoster = useMemo(() => new Set(entries.map((e) => e.studentId)), [entries]);
  const removeMutate = remove.mutate;
  const onRemove = useCallback(
    (r: RosterEntry) =>
      removeMutate(r.studentId, {
        onSuccess: () => notifySuccess('Roster updated', `${r.firstName} ${r.lastName} was removed. Their attendance history is kept.`),
        onError: (e) => notifyFailure(e, 'Failed to remove the student from the roster. Please try again.'),
      }),
    [removeMutate],
  );

  return (
    <>
      <div className="mb-2 flex items-baseline justify-between">
        <h3 className="text-sm font-semibold text-slate-900">On the roster</h3>
        <p className="text-sm text-slate-600" aria-live="polite">
          {roster.isSuccess ? `${entries.length} ${entries.length === 1 ? 'student' : 'students'}` : null}
        </p>
      </div>
      {roster.isError ? <Alert className="mb-3">The roster could not be loaded.</Alert> : null}
      <RosterTable entries={entries} isLoading={roster.isLoading} onRemove={onRemove} removingId={remove.isPending ? (remove.variables ?? null) : null} />
      <RosterAddStudents scheduleId={scheduleId} onRoster={onRoster} />
      <ModalFooter>
        <ModalCancel>Done</ModalCancel>
      </ModalFooter>
    </>
  );
}
