CREATE TABLE "attendance_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"attendance_record_id" integer NOT NULL,
	"changed_by" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_closures" (
	"id" serial PRIMARY KEY NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"name" text NOT NULL,
	"program_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_closures_dates_check" CHECK ("calendar_closures"."end_date" >= "calendar_closures"."start_date"),
	CONSTRAINT "calendar_closures_name_not_blank" CHECK (length(trim("calendar_closures"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "make_up_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"session_date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"minutes" integer NOT NULL,
	"supervisor_id" integer NOT NULL,
	"course_id" integer,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "make_up_sessions_times_check" CHECK ("make_up_sessions"."end_time" > "make_up_sessions"."start_time" and "make_up_sessions"."minutes" > 0)
);
--> statement-breakpoint
CREATE TABLE "program_policies" (
	"program_id" integer PRIMARY KEY NOT NULL,
	"program_hours" numeric(7, 1),
	"program_weeks" numeric(5, 1),
	"academic_year_hours" numeric(7, 1) DEFAULT '900' NOT NULL,
	"academic_year_weeks" numeric(5, 1) DEFAULT '26' NOT NULL,
	"excused_cap_percent" numeric(4, 1) DEFAULT '10' NOT NULL,
	"minimum_attendance_percent" numeric(4, 1) DEFAULT '80' NOT NULL,
	"sap_checkpoint_hours" numeric(7, 1)[],
	"withdraw_after_days" integer DEFAULT 14 NOT NULL,
	"make_up_deadline_days" integer DEFAULT 14 NOT NULL,
	"make_up_cap_percent" numeric(4, 1),
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_policies_year_check" CHECK ("program_policies"."academic_year_hours" >= 900 and "program_policies"."academic_year_weeks" >= 26),
	CONSTRAINT "program_policies_excused_cap_check" CHECK ("program_policies"."excused_cap_percent" between 0 and 10),
	CONSTRAINT "program_policies_minimum_check" CHECK ("program_policies"."minimum_attendance_percent" between 0 and 100),
	CONSTRAINT "program_policies_withdraw_check" CHECK ("program_policies"."withdraw_after_days" between 1 and 14),
	CONSTRAINT "program_policies_make_up_check" CHECK ("program_policies"."make_up_deadline_days" >= 0 and ("program_policies"."make_up_cap_percent" is null or "program_policies"."make_up_cap_percent" between 0 and 100))
);
--> statement-breakpoint
ALTER TABLE "attendance_records" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "attendance_corrections" ADD CONSTRAINT "attendance_corrections_attendance_record_id_attendance_records_id_fk" FOREIGN KEY ("attendance_record_id") REFERENCES "public"."attendance_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_corrections" ADD CONSTRAINT "attendance_corrections_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_closures" ADD CONSTRAINT "calendar_closures_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_closures" ADD CONSTRAINT "calendar_closures_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "make_up_sessions" ADD CONSTRAINT "make_up_sessions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "make_up_sessions" ADD CONSTRAINT "make_up_sessions_supervisor_id_users_id_fk" FOREIGN KEY ("supervisor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "make_up_sessions" ADD CONSTRAINT "make_up_sessions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "make_up_sessions" ADD CONSTRAINT "make_up_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_policies" ADD CONSTRAINT "program_policies_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_policies" ADD CONSTRAINT "program_policies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_corrections_record_idx" ON "attendance_corrections" USING btree ("attendance_record_id","changed_at");--> statement-breakpoint
CREATE INDEX "calendar_closures_dates_idx" ON "calendar_closures" USING btree ("start_date","end_date");--> statement-breakpoint
CREATE INDEX "make_up_sessions_student_idx" ON "make_up_sessions" USING btree ("student_id","session_date");--> statement-breakpoint
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;