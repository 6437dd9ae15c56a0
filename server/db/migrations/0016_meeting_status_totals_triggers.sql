-- meeting_status_totals follows attendance_records in the same transaction: each statement that
-- writes records adds (inserted, new values) and subtracts (deleted, old values) its rows' counts and
-- minutes per meeting and status, grouped, so a statement touches each totals row once, in key
-- order (two statements never wait on each other's rows in opposite orders).
CREATE FUNCTION meeting_status_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO meeting_status_totals AS t (schedule_id, session_date, status, records, minutes_attended, scheduled_minutes)
    SELECT schedule_id, session_date, status, count(*), coalesce(sum(minutes_attended), 0), coalesce(sum(scheduled_minutes), 0)
      FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (schedule_id, session_date, status) DO UPDATE
      SET records = t.records + excluded.records,
          minutes_attended = t.minutes_attended + excluded.minutes_attended,
          scheduled_minutes = t.scheduled_minutes + excluded.scheduled_minutes;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO meeting_status_totals AS t (schedule_id, session_date, status, records, minutes_attended, scheduled_minutes)
    SELECT schedule_id, session_date, status, -count(*), -coalesce(sum(minutes_attended), 0), -coalesce(sum(scheduled_minutes), 0)
      FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (schedule_id, session_date, status) DO UPDATE
      SET records = t.records + excluded.records,
          minutes_attended = t.minutes_attended + excluded.minutes_attended,
          scheduled_minutes = t.scheduled_minutes + excluded.scheduled_minutes;
  ELSE
    -- An update that changes none of the counted values (a sync status, a note) writes nothing here.
    INSERT INTO meeting_status_totals AS t (schedule_id, session_date, status, records, minutes_attended, scheduled_minutes)
    SELECT schedule_id, session_date, status, sum(n), sum(m), sum(s)
      FROM (SELECT schedule_id, session_date, status, -1 AS n, -coalesce(minutes_attended, 0) AS m, -coalesce(scheduled_minutes, 0) AS s FROM old_rows
            UNION ALL
            SELECT schedule_id, session_date, status, 1, coalesce(minutes_attended, 0), coalesce(scheduled_minutes, 0) FROM new_rows) d
     GROUP BY 1, 2, 3
    HAVING sum(n) <> 0 OR sum(m) <> 0 OR sum(s) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT (schedule_id, session_date, status) DO UPDATE
      SET records = t.records + excluded.records,
          minutes_attended = t.minutes_attended + excluded.minutes_attended,
          scheduled_minutes = t.scheduled_minutes + excluded.scheduled_minutes;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER meeting_status_totals_insert AFTER INSERT ON attendance_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION meeting_status_totals_apply();
--> statement-breakpoint
CREATE TRIGGER meeting_status_totals_update AFTER UPDATE ON attendance_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION meeting_status_totals_apply();
--> statement-breakpoint
CREATE TRIGGER meeting_status_totals_delete AFTER DELETE ON attendance_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION meeting_status_totals_apply();
--> statement-breakpoint
-- The records already there.
INSERT INTO meeting_status_totals (schedule_id, session_date, status, records, minutes_attended, scheduled_minutes)
SELECT schedule_id, session_date, status, count(*), coalesce(sum(minutes_attended), 0), coalesce(sum(scheduled_minutes), 0)
  FROM attendance_records GROUP BY 1, 2, 3;
