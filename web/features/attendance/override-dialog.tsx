import { useRef, useState, type FormEvent } from 'react';
import { OVERRIDE_VALIDATION, type AttendanceRow } from '../../../common/attendance.ts';
import { ATTENDANCE_STATUS_LABELS, OVERRIDE_STATUSES } from '../../../common/constants.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { refusalOf, useOverride, type OverrideInput } from './attendance-api.ts';
import { formatDate } from '../../lib/format.ts';
import { useSettings } from '../../lib/shared-queries.ts';
import { schoolClock, schoolInstantIso } from '../../lib/zoned-time.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { AttendanceStatusBadge } from './status-badge.tsx';

type OverrideStatus = OverrideInput['status'];
const isOverrideStatus = (v: string): v is OverrideStatus => (OVERRIDE_STATUSES as readonly string[]).includes(v);

/**
 * SPEC §4/§5 manual override: a status (present, late, absent, excused) and a non-blank reason,
 * both required. The reason is kept with the record and in the audit log.
 */
export function OverrideDialog({ row, scheduleId, onClose }: { row: AttendanceRow | null; scheduleId: number; onClose: () => void }) {
  return (
    <Modal
      open={row != null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Override Attendance"
      description={row ? `${row.firstName} ${row.lastName} · ${formatDate(row.sessionDate)}` : undefined}
    >
      {row ? <OverrideForm key={row.studentId} row={row} scheduleId={scheduleId} onDone={onClose} /> : null}
    </Modal>
  );
}

function OverrideForm({ row, scheduleId, onDone }: { row: AttendanceRow; scheduleId: number; onDone: () => void }) {
  const override = useOverride();
  const timeZone = useSettings().data?.attendance.timeZone;
  const [status, setStatus] = useState('');
  const [reason, setReason] = useState('');
  // A corrected punch, typed on the school's clock; blank keeps the recorded times.
  const [arrived, setArrived] = useState(() => (row.scanInTime && timeZone ? schoolClock(row.scanInTime, timeZone) : ''));
  const [left, setLeft] = useState(() => (row.scanOutTime && timeZone ? schoolClock(row.scanOutTime, timeZone) : ''));
  const canCorrectTimes = (status === 'present' || status === 'late') && timeZone != null;
  // Errors show after a first attempt, then follow the fields as they are corrected.
  const [attempted, setAttempted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const missing = { status: !isOverrideStatus(status), reason: reason.trim() === '' };
  const invalid = attempted && (missing.status || missing.reason) ? missing : null;
  // Why the server would not make the change (a locked past meeting, a day the class did not meet).
  const refusal = override.isError ? refusalOf(override.error) : null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    if (!isOverrideStatus(status) || reason.trim() === '') {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const original = {
      in: row.scanInTime && timeZone ? schoolClock(row.scanInTime, timeZone) : '',
      out: row.scanOutTime && timeZone ? schoolClock(row.scanOutTime, timeZone) : '',
    };
    const times =
      canCorrectTimes && timeZone && (arrived !== original.in || left !== original.out)
        ? {
            ...(arrived ? { scanInTime: schoolInstantIso(row.sessionDate, arrived, timeZone) } : {}),
            ...(left ? { scanOutTime: schoolInstantIso(row.sessionDate, left, timeZone) } : {}),
          }
        : {};
    override.mutate({ row, scheduleId, status, reason: reason.trim(), ...times }, { onSuccess: onDone });
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Override attendance">
      <div className="mb-5 flex items-center gap-2 text-sm text-slate-700">
        <span>Current status:</span>
        <AttendanceStatusBadge status={row.status} />
        {row.isManualOverride ? <span className="text-xs text-slate-500">(already overridden)</span> : null}
      </div>
      {invalid ? <Alert className="mb-5">{OVERRIDE_VALIDATION}</Alert> : null}
      {refusal ? (
        <Alert className="mb-5">
          <p className="font-semibold">This record cannot be changed</p>
          <p>{refusal}</p>
        </Alert>
      ) : null}
      <div className="space-y-4">
        <SelectField
          label="New status"
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          error={invalid?.status ? 'Select a status' : undefined}
          required
        >
          <option value="">Select a status…</option>
          {OVERRIDE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ATTENDANCE_STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
        {canCorrectTimes ? (
          <fieldset className="grid grid-cols-2 gap-3">
            <legend className="mb-1 text-sm font-medium text-slate-700">Correct the times (optional, school time)</legend>
            <TextField label="Arrived at" name="scanInTime" type="time" value={arrived} onChange={(e) => setArrived(e.target.value)} />
            <TextField label="Left at" name="scanOutTime" type="time" value={left} onChange={(e) => setLeft(e.target.value)} />
            <p className="col-span-2 text-xs text-slate-500">The original times stay in the record's history.</p>
          </fieldset>
        ) : null}
        <TextareaField
          label="Reason for override"
          name="overrideReason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          placeholder="e.g. Phone battery died; student was present from the start"
          error={invalid?.reason ? 'Give a reason' : undefined}
          required
        />
      </div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={override.isPending}>
          {override.isPending ? <Spinner className="size-4" /> : null}
          Save Override
        </Button>
      </ModalFooter>
    </form>
  );
}
