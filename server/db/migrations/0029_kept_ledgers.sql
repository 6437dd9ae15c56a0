CREATE TABLE "ledger_days" (
	"student_id" integer NOT NULL,
	"day" date NOT NULL,
	"scheduled" integer NOT NULL,
	"attended" integer NOT NULL,
	"excused" integer NOT NULL,
	"make_up" integer NOT NULL,
	"credited" integer NOT NULL,
	"raw" integer NOT NULL,
	"rounded" integer NOT NULL,
	"deducted" integer NOT NULL,
	"capped" integer NOT NULL,
	"pending_exception" integer NOT NULL,
	"auto_check_out" integer NOT NULL,
	"gap" integer NOT NULL,
	"last_attended" date,
	CONSTRAINT "ledger_days_student_id_day_pk" PRIMARY KEY("student_id","day")
);
--> statement-breakpoint
CREATE TABLE "ledger_state" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"valid_through" date,
	"stale_from" date,
	"carry" jsonb,
	"refreshed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_days" ADD CONSTRAINT "ledger_days_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_state" ADD CONSTRAINT "ledger_state_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_state_valid_through_idx" ON "ledger_state" USING btree ("valid_through");--> statement-breakpoint
CREATE INDEX "ledger_state_stale_idx" ON "ledger_state" USING btree ("stale_from") WHERE "ledger_state"."stale_from" is not null;--> statement-breakpoint
-- Kept ledgers (decision 056). Every table the ledger is computed from marks the students whose
-- kept days a statement changes: `version` is bumped (the refresher writes only if it is unchanged)
-- and `stale_from` is set to the earliest kept day changed. Days from the school's yesterday on are
-- never kept (the keep horizon is two days before today, server/modules/hours/kept-ledgers.ts), so a
-- check-in marks nothing; yesterday is marked so that a refresher keeping it never misses a write
-- still in flight.
CREATE FUNCTION ledger_mark_horizon() RETURNS date LANGUAGE sql STABLE AS $$
  -- The later of yesterday (the database's clock, in the school's zone) and the day after the last kept
  -- day of anyone (a clock the app is told, as tests and benches do, may run ahead of the database's).
  SELECT greatest((now() AT TIME ZONE coalesce((SELECT time_zone FROM school_settings LIMIT 1), 'UTC'))::date - 1,
                  (SELECT max(valid_through) + 1 FROM ledger_state))
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_mark(p_ids integer[], p_days date[]) RETURNS void LANGUAGE sql AS $$
  -- Locked in id order first: two statements marking overlapping students never deadlock.
  WITH m AS (SELECT id, min(day) AS day FROM unnest(p_ids, p_days) AS u(id, day)
              WHERE id IS NOT NULL AND day <= ledger_mark_horizon() GROUP BY id),
       locked AS (SELECT s.student_id FROM ledger_state s JOIN m ON m.id = s.student_id ORDER BY s.student_id FOR UPDATE OF s)
  UPDATE ledger_state s
     SET version = s.version + 1,
         stale_from = CASE WHEN s.valid_through IS NOT NULL AND m.day <= s.valid_through
                           THEN least(coalesce(s.stale_from, m.day), m.day) ELSE s.stale_from END
    FROM m JOIN locked l ON l.student_id = m.id
   WHERE s.student_id = m.id
$$;
--> statement-breakpoint
-- Students of programs (a null program: every student) from a day.
CREATE FUNCTION ledger_mark_programs(p_programs integer[], p_days date[]) RETURNS void LANGUAGE sql AS $$
  SELECT ledger_mark(array_agg(st.id), array_agg(m.day))
    FROM (SELECT program_id, min(day) AS day FROM unnest(p_programs, p_days) AS u(program_id, day) GROUP BY program_id) m
    JOIN students st ON m.program_id IS NULL OR st.program_id = m.program_id
$$;
--> statement-breakpoint
-- The students of schedules from a day (a meeting becomes held, its breaks or the class's times
-- change): those on the roster, and those with records in the class without being on it (theirs count).
CREATE FUNCTION ledger_mark_schedules(p_schedules integer[], p_days date[]) RETURNS void LANGUAGE sql AS $$
  WITH m AS (SELECT schedule_id, min(day) AS day FROM unnest(p_schedules, p_days) AS u(schedule_id, day)
              WHERE day <= ledger_mark_horizon() GROUP BY schedule_id)
  SELECT ledger_mark(array_agg(x.student_id), array_agg(x.day))
    FROM (SELECT r.student_id, m.day FROM m JOIN schedule_rosters r ON r.schedule_id = m.schedule_id
          UNION
          SELECT DISTINCT a.student_id, m.day FROM m JOIN attendance_records a ON a.schedule_id = m.schedule_id AND a.session_date >= m.day) x
$$;
--> statement-breakpoint
-- The rows a statement wrote or removed mark whom they concern. The trigger's arguments: the marking
-- function (ledger_mark: students; ledger_mark_schedules: rosters; ledger_mark_programs: programs),
-- and two expressions over the row: whom, and the first day concerned.
CREATE FUNCTION ledger_stale_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY['new_rows'] WHEN 'DELETE' THEN ARRAY['old_rows'] ELSE ARRAY['old_rows', 'new_rows'] END LOOP
    EXECUTE format('SELECT %I(array_agg(%s), array_agg(%s)) FROM %I HAVING count(*) > 0', TG_ARGV[0], TG_ARGV[1], TG_ARGV[2], t);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Records: the student, and (a meeting held or not any more) the whole roster of the meeting. An
-- update that changes nothing the ledger reads (a sync status, a note) marks nothing.
CREATE FUNCTION ledger_stale_attendance_records() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE h date := ledger_mark_horizon();
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM ledger_mark(array_agg(x.student_id), array_agg(x.session_date)), ledger_mark_schedules(array_agg(x.schedule_id), array_agg(x.session_date))
       FROM (SELECT r.student_id, r.schedule_id, r.session_date
               FROM old_rows o JOIN new_rows n ON n.id = o.id,
                    LATERAL (VALUES (o.student_id, o.schedule_id, o.session_date), (n.student_id, n.schedule_id, n.session_date)) AS r(student_id, schedule_id, session_date)
              WHERE (o.student_id, o.schedule_id, o.session_date, o.status, o.scan_in_time, o.scan_out_time, o.minutes_attended)
                    IS DISTINCT FROM (n.student_id, n.schedule_id, n.session_date, n.status, n.scan_in_time, n.scan_out_time, n.minutes_attended)) x
      WHERE x.session_date <= h
     HAVING count(*) > 0;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM ledger_mark(array_agg(student_id), array_agg(session_date)), ledger_mark_schedules(array_agg(schedule_id), array_agg(session_date))
       FROM new_rows WHERE session_date <= h HAVING count(*) > 0;
  ELSE
    PERFORM ledger_mark(array_agg(student_id), array_agg(session_date)), ledger_mark_schedules(array_agg(schedule_id), array_agg(session_date))
       FROM old_rows WHERE session_date <= h HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A schedule's calendar or times: its roster's whole ledgers.
CREATE FUNCTION ledger_stale_schedules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM ledger_mark_schedules(array_agg(n.id), array_agg('-infinity'::date)) FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.day_of_week, o.start_time, o.end_time, o.course_start_date, o.course_end_date, o.holiday_exceptions, o.makeup_dates, o.breaks)
            IS DISTINCT FROM (n.day_of_week, n.start_time, n.end_time, n.course_start_date, n.course_end_date, n.holiday_exceptions, n.makeup_dates, n.breaks)
     HAVING count(*) > 0;
  ELSE
    PERFORM ledger_mark_schedules(array_agg(id), array_agg('-infinity'::date)) FROM old_rows HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A student's enrolment date or program.
CREATE FUNCTION ledger_stale_students() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_mark(array_agg(n.id), array_agg('-infinity'::date)) FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.enrollment_date, o.program_id) IS DISTINCT FROM (n.enrollment_date, n.program_id) HAVING count(*) > 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The school's time zone or the date Muster keeps attendance from: everyone.
CREATE FUNCTION ledger_stale_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.time_zone, o.records_start_date) IS DISTINCT FROM (n.time_zone, n.records_start_date)) THEN
    UPDATE ledger_state SET version = version + 1, stale_from = CASE WHEN valid_through IS NULL THEN stale_from ELSE '-infinity'::date END;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('attendance_records', $f$ledger_stale_attendance_records()$f$, 'IUD'),
    -- A student's breaks: the student, on the record's day.
    ('attendance_breaks', $f$ledger_stale_rows(ledger_mark, '(SELECT r.student_id FROM attendance_records r WHERE r.id = record_id)',
                                               '(SELECT r.session_date FROM attendance_records r WHERE r.id = record_id)')$f$, 'IUD'),
    ('meeting_breaks', $f$ledger_stale_rows(ledger_mark_schedules, schedule_id, session_date)$f$, 'IUD'),
    ('qr_sessions', $f$ledger_stale_rows(ledger_mark_schedules, schedule_id, session_date)$f$, 'IUD'),
    ('make_up_sessions', $f$ledger_stale_rows(ledger_mark, student_id, session_date)$f$, 'IUD'),
    ('student_leaves', $f$ledger_stale_rows(ledger_mark, student_id, start_date)$f$, 'IUD'),
    ('student_withdrawals', $f$ledger_stale_rows(ledger_mark, student_id, withdrawal_date)$f$, 'IUD'),
    ('student_opening_balances', $f$ledger_stale_rows(ledger_mark, student_id, '''-infinity''::date')$f$, 'IUD'),
    -- Joining or leaving a class: from the class's first meeting (its course start, or an earlier
    -- make-up date); a class removed with its roster: the whole ledger.
    ('schedule_rosters', $f$ledger_stale_rows(ledger_mark, student_id, 'coalesce((SELECT least(s.course_start_date, (SELECT min(d) FROM unnest(s.makeup_dates) d))
                                                                       FROM schedules s WHERE s.id = schedule_id), ''-infinity''::date)')$f$, 'IUD'),
    ('calendar_closures', $f$ledger_stale_rows(ledger_mark_programs, program_id, start_date)$f$, 'IUD'),
    ('program_policies', $f$ledger_stale_rows(ledger_mark_programs, program_id, '''-infinity''::date')$f$, 'IUD'),
    ('program_time_clock_versions', $f$ledger_stale_rows(ledger_mark_programs, program_id, 'coalesce(effective_from, ''-infinity''::date)')$f$, 'IUD'),
    ('schedules', $f$ledger_stale_schedules()$f$, 'UD'),
    ('students', $f$ledger_stale_students()$f$, 'U'),
    ('school_settings', $f$ledger_stale_settings()$f$, 'U')
  ) AS v(tbl, fn, ops) LOOP
    IF position('I' in t.ops) > 0 THEN
      EXECUTE format('CREATE TRIGGER ledger_stale_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %s', t.tbl, t.fn);
    END IF;
    EXECUTE format('CREATE TRIGGER ledger_stale_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %s', t.tbl, t.fn);
    IF position('D' in t.ops) > 0 THEN
      EXECUTE format('CREATE TRIGGER ledger_stale_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %s', t.tbl, t.fn);
    END IF;
  END LOOP;
END
$$;
