-- A record handed to the SIS (sync_status 'synced') that changes afterwards is pending again: the
-- SIS holds the old version until the next export (decision 032). Only the values the export
-- carries count; 'manual' records are exchanged by hand and keep their state, and an update that
-- moves sync_status itself (the export's mark, pending to synced) is left as it is.
CREATE FUNCTION attendance_pending_after_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.student_id, NEW.schedule_id, NEW.session_date, NEW.status, NEW.scan_in_time, NEW.scan_out_time, NEW.minutes_attended,
      NEW.scheduled_minutes, NEW.is_manual_override, NEW.override_reason, NEW.source)
     IS DISTINCT FROM
     (OLD.student_id, OLD.schedule_id, OLD.session_date, OLD.status, OLD.scan_in_time, OLD.scan_out_time, OLD.minutes_attended,
      OLD.scheduled_minutes, OLD.is_manual_override, OLD.override_reason, OLD.source) THEN
    NEW.sync_status := 'pending';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER attendance_pending_after_change BEFORE UPDATE ON attendance_records
  FOR EACH ROW WHEN (OLD.sync_status = 'synced' AND NEW.sync_status = 'synced') EXECUTE FUNCTION attendance_pending_after_change();
