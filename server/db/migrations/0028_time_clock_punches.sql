-- Several punches per meeting, instructor-led and scheduled breaks, missed-punch requests (issue 29, decision 051).
CREATE TABLE "attendance_breaks" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_id" integer NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"meeting_break_id" integer,
	"started_device_id" text,
	"ended_device_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_breaks_kind_check" CHECK ("attendance_breaks"."kind" is null or "attendance_breaks"."kind" in ('break', 'lunch', 'instructor')),
	CONSTRAINT "attendance_breaks_order_check" CHECK ("attendance_breaks"."ended_at" is null or "attendance_breaks"."ended_at" >= "attendance_breaks"."started_at")
);
--> statement-breakpoint
CREATE TABLE "meeting_breaks" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"session_date" date NOT NULL,
	"qr_session_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"recheck_until" timestamp with time zone,
	"started_by" integer,
	"ended_by" integer,
	CONSTRAINT "meeting_breaks_order_check" CHECK ("meeting_breaks"."ended_at" is null or ("meeting_breaks"."ended_at" >= "meeting_breaks"."started_at" and "meeting_breaks"."recheck_until" >= "meeting_breaks"."ended_at"))
);
--> statement-breakpoint
CREATE TABLE "missed_punch_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"session_date" date NOT NULL,
	"record_id" integer,
	"check_in_at" timestamp with time zone,
	"check_out_at" timestamp with time zone,
	"reason" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missed_punch_requests_status_check" CHECK ("missed_punch_requests"."status" is null or "missed_punch_requests"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "missed_punch_requests_source_check" CHECK ("missed_punch_requests"."source" is null or "missed_punch_requests"."source" in ('scan_page', 'hours_link')),
	CONSTRAINT "missed_punch_requests_times_check" CHECK ("missed_punch_requests"."check_in_at" is not null or "missed_punch_requests"."check_out_at" is not null),
	CONSTRAINT "missed_punch_requests_order_check" CHECK ("missed_punch_requests"."check_in_at" is null or "missed_punch_requests"."check_out_at" is null or "missed_punch_requests"."check_out_at" > "missed_punch_requests"."check_in_at"),
	CONSTRAINT "missed_punch_requests_reason_check" CHECK (length(trim("missed_punch_requests"."reason")) between 1 and 500),
	CONSTRAINT "missed_punch_requests_decision_check" CHECK ("missed_punch_requests"."status" = 'pending' or ("missed_punch_requests"."decided_at" is not null and length(trim(coalesce("missed_punch_requests"."decision_reason", ''))) > 0))
);
--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "breaks" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "attendance_corrections" ADD COLUMN "missed_punch_request_id" integer;
--> statement-breakpoint
ALTER TABLE "attendance_breaks" ADD CONSTRAINT "attendance_breaks_record_id_attendance_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."attendance_records"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "attendance_breaks" ADD CONSTRAINT "attendance_breaks_meeting_break_id_meeting_breaks_id_fk" FOREIGN KEY ("meeting_break_id") REFERENCES "public"."meeting_breaks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "meeting_breaks" ADD CONSTRAINT "meeting_breaks_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "meeting_breaks" ADD CONSTRAINT "meeting_breaks_qr_session_id_qr_sessions_id_fk" FOREIGN KEY ("qr_session_id") REFERENCES "public"."qr_sessions"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "meeting_breaks" ADD CONSTRAINT "meeting_breaks_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "meeting_breaks" ADD CONSTRAINT "meeting_breaks_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "missed_punch_requests" ADD CONSTRAINT "missed_punch_requests_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "missed_punch_requests" ADD CONSTRAINT "missed_punch_requests_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "missed_punch_requests" ADD CONSTRAINT "missed_punch_requests_record_id_attendance_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."attendance_records"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "missed_punch_requests" ADD CONSTRAINT "missed_punch_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "attendance_breaks_record_idx" ON "attendance_breaks" USING btree ("record_id","started_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_breaks_one_open" ON "attendance_breaks" USING btree ("record_id") WHERE "attendance_breaks"."ended_at" is null;
--> statement-breakpoint
CREATE INDEX "meeting_breaks_meeting_idx" ON "meeting_breaks" USING btree ("schedule_id","session_date");
--> statement-breakpoint
CREATE UNIQUE INDEX "meeting_breaks_one_open" ON "meeting_breaks" USING btree ("schedule_id","session_date") WHERE "meeting_breaks"."ended_at" is null;
--> statement-breakpoint
CREATE INDEX "missed_punch_requests_meeting_idx" ON "missed_punch_requests" USING btree ("schedule_id","session_date");
--> statement-breakpoint
CREATE INDEX "missed_punch_requests_student_idx" ON "missed_punch_requests" USING btree ("student_id","session_date");
--> statement-breakpoint
CREATE INDEX "missed_punch_requests_pending_idx" ON "missed_punch_requests" USING btree ("status") WHERE "missed_punch_requests"."status" = 'pending';
--> statement-breakpoint
CREATE UNIQUE INDEX "missed_punch_requests_one_pending" ON "missed_punch_requests" USING btree ("student_id","schedule_id","session_date") WHERE "missed_punch_requests"."status" = 'pending';
--> statement-breakpoint
ALTER TABLE "attendance_corrections" ADD CONSTRAINT "attendance_corrections_missed_punch_request_id_missed_punch_requests_id_fk" FOREIGN KEY ("missed_punch_request_id") REFERENCES "public"."missed_punch_requests"("id") ON DELETE set null ON UPDATE no action;
