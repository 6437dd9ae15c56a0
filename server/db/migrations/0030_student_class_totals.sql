CREATE TABLE "student_class_totals" (
	"student_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	"absences" integer DEFAULT 0 NOT NULL,
	"minutes_attended" bigint DEFAULT 0 NOT NULL,
	"scheduled_minutes" bigint DEFAULT 0 NOT NULL,
	"last_session_date" date,
	"last_absence_date" date,
	"recent" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "student_class_totals_student_id_schedule_id_pk" PRIMARY KEY("student_id","schedule_id")
);
--> statement-breakpoint
CREATE INDEX "student_class_totals_last_session_idx" ON "student_class_totals" USING btree ("last_session_date");--> statement-breakpoint
-- The statuses of a student's last five meetings of a class, newest first: the one place that says
-- how many are kept (the alert rules read at most that many).
CREATE FUNCTION student_class_recent(p_student integer, p_schedule integer) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT array(SELECT status FROM attendance_records WHERE student_id = p_student AND schedule_id = p_schedule ORDER BY session_date DESC LIMIT 5)
$$;
--> statement-breakpoint
-- student_class_totals follows attendance_records in the same transaction, as meeting_status_totals
-- does (migration 0016). Inserted rows add, in one upsert in key order. For deletes and updates, the
-- rows are grouped per student and class into differences (deleted rows subtract, an update's changed
-- rows both); the rows they touch are created when new and locked in key order (two statements never
-- wait on each other in opposite orders); then, reading the records after the lock (so a concurrent
-- writer's committed rows are seen), the counts move by the differences, the last meeting and last
-- absence move forward with new rows or are read again where an old row was the last one, and the
-- last statuses are read again.
CREATE FUNCTION student_class_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- New rows only add, and a check-in's statement is on the hot path: one statement. The last
    -- statuses are read under the row's lock but with this statement's snapshot, so a record another
    -- transaction commits for the same student and class at the same instant can be missing from
    -- them until that class's next write reads them again (counts and dates are exact).
    INSERT INTO student_class_totals AS t (student_id, schedule_id, records, absences, minutes_attended, scheduled_minutes, last_session_date, last_absence_date, recent)
    SELECT student_id, schedule_id, count(*), count(*) FILTER (WHERE status = 'absent'), coalesce(sum(minutes_attended), 0), coalesce(sum(scheduled_minutes), 0),
           max(session_date), max(session_date) FILTER (WHERE status = 'absent'), student_class_recent(student_id, schedule_id)
      FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (student_id, schedule_id) DO UPDATE
      SET records = t.records + excluded.records,
          absences = t.absences + excluded.absences,
          minutes_attended = t.minutes_attended + excluded.minutes_attended,
          scheduled_minutes = t.scheduled_minutes + excluded.scheduled_minutes,
          last_session_date = greatest(t.last_session_date, excluded.last_session_date),
          last_absence_date = greatest(t.last_absence_date, excluded.last_absence_date),
          recent = excluded.recent;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(x) INTO changes FROM (
      SELECT student_id, schedule_id, -count(*) AS n, -count(*) FILTER (WHERE status = 'absent') AS a,
             -coalesce(sum(minutes_attended), 0) AS m, -coalesce(sum(scheduled_minutes), 0) AS s,
             max(session_date) AS od, max(session_date) FILTER (WHERE status = 'absent') AS oad, NULL::date AS nd, NULL::date AS nad
        FROM old_rows GROUP BY 1, 2) x;
  ELSE
    -- Only the rows whose kept values changed: a sync status or a note changes nothing here.
    SELECT jsonb_agg(x) INTO changes FROM (
      SELECT student_id, schedule_id, sum(n) AS n, sum(a) AS a, sum(m) AS m, sum(s) AS s, max(od) AS od, max(oad) AS oad, max(nd) AS nd, max(nad) AS nad
        FROM (SELECT o.student_id, o.schedule_id, -1 AS n, -(o.status = 'absent')::int AS a, -coalesce(o.minutes_attended, 0) AS m,
                     -coalesce(o.scheduled_minutes, 0) AS s, o.session_date AS od, CASE WHEN o.status = 'absent' THEN o.session_date END AS oad,
                     NULL::date AS nd, NULL::date AS nad
                FROM old_rows o
               WHERE NOT EXISTS (SELECT 1 FROM new_rows w WHERE w.id = o.id
                                   AND (w.student_id, w.schedule_id, w.session_date, w.status, w.minutes_attended, w.scheduled_minutes)
                                       IS NOT DISTINCT FROM (o.student_id, o.schedule_id, o.session_date, o.status, o.minutes_attended, o.scheduled_minutes))
              UNION ALL
              SELECT w.student_id, w.schedule_id, 1, (w.status = 'absent')::int, coalesce(w.minutes_attended, 0), coalesce(w.scheduled_minutes, 0),
                     NULL::date, NULL::date, w.session_date, CASE WHEN w.status = 'absent' THEN w.session_date END
                FROM new_rows w
               WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = w.id
                                   AND (w.student_id, w.schedule_id, w.session_date, w.status, w.minutes_attended, w.scheduled_minutes)
                                       IS NOT DISTINCT FROM (o.student_id, o.schedule_id, o.session_date, o.status, o.minutes_attended, o.scheduled_minutes))) y
       GROUP BY 1, 2) x;
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO student_class_totals (student_id, schedule_id)
  SELECT student_id, schedule_id FROM jsonb_to_recordset(changes) AS x(student_id integer, schedule_id integer) ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM student_class_totals t JOIN jsonb_to_recordset(changes) AS x(student_id integer, schedule_id integer) USING (student_id, schedule_id)
    ORDER BY t.student_id, t.schedule_id FOR UPDATE OF t;
  UPDATE student_class_totals t
     SET records = t.records + x.n,
         absences = t.absences + x.a,
         minutes_attended = t.minutes_attended + x.m,
         scheduled_minutes = t.scheduled_minutes + x.s,
         last_session_date = CASE WHEN x.od >= t.last_session_date
                                  THEN (SELECT max(r.session_date) FROM attendance_records r WHERE r.student_id = t.student_id AND r.schedule_id = t.schedule_id)
                                  ELSE greatest(t.last_session_date, x.nd) END,
         last_absence_date = CASE WHEN x.oad >= t.last_absence_date
                                  THEN (SELECT max(r.session_date) FROM attendance_records r
                                         WHERE r.student_id = t.student_id AND r.schedule_id = t.schedule_id AND r.status = 'absent')
                                  ELSE greatest(t.last_absence_date, x.nad) END,
         recent = student_class_recent(t.student_id, t.schedule_id)
    FROM jsonb_to_recordset(changes) AS x(student_id integer, schedule_id integer, n integer, a integer, m bigint, s bigint, od date, oad date, nd date, nad date)
   WHERE t.student_id = x.student_id AND t.schedule_id = x.schedule_id;
  DELETE FROM student_class_totals t USING jsonb_to_recordset(changes) AS x(student_id integer, schedule_id integer)
   WHERE t.student_id = x.student_id AND t.schedule_id = x.schedule_id AND t.records <= 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER student_class_totals_insert AFTER INSERT ON attendance_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION student_class_totals_apply();
--> statement-breakpoint
CREATE TRIGGER student_class_totals_update AFTER UPDATE ON attendance_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION student_class_totals_apply();
--> statement-breakpoint
CREATE TRIGGER student_class_totals_delete AFTER DELETE ON attendance_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION student_class_totals_apply();
--> statement-breakpoint
-- The records already there.
INSERT INTO student_class_totals (student_id, schedule_id, records, absences, minutes_attended, scheduled_minutes, last_session_date, last_absence_date, recent)
SELECT student_id, schedule_id, count(*), count(*) FILTER (WHERE status = 'absent'), coalesce(sum(minutes_attended), 0), coalesce(sum(scheduled_minutes), 0),
       max(session_date), max(session_date) FILTER (WHERE status = 'absent'), student_class_recent(student_id, schedule_id)
  FROM attendance_records GROUP BY 1, 2;
