CREATE TABLE "instructor_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"phone" text,
	"department" text,
	"qualifications" text,
	"hire_date" date,
	"salary" numeric(12, 2),
	"office_location" text,
	"bio" text,
	"specializations" text,
	"certifications" text,
	"employment_type" text,
	"external_instructor_id" text,
	"employee_id" text,
	"license_number" text,
	"last_sync_date" timestamp with time zone,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instructor_employment_type_check" CHECK ("instructor_profiles"."employment_type" is null or "instructor_profiles"."employment_type" in ('Full-time', 'Part-time', 'Adjunct')),
	CONSTRAINT "instructor_salary_check" CHECK ("instructor_profiles"."salary" is null or "instructor_profiles"."salary" >= 0),
	CONSTRAINT "instructor_sync_status_check" CHECK ("instructor_profiles"."sync_status" is null or "instructor_profiles"."sync_status" in ('pending', 'synced', 'failed', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "login_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"username" text,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_login" timestamp with time zone,
	"sis_user_id" text,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"password_token_hash" text,
	"password_token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" is null or "users"."role" in ('super_admin', 'it_admin', 'instructor', 'support_staff')),
	CONSTRAINT "users_email_not_blank" CHECK (length(trim("users"."email")) > 0)
);
--> statement-breakpoint
CREATE TABLE "course_prerequisites" (
	"course_id" integer NOT NULL,
	"prerequisite_id" integer NOT NULL,
	CONSTRAINT "course_prerequisites_course_id_prerequisite_id_pk" PRIMARY KEY("course_id","prerequisite_id"),
	CONSTRAINT "course_prerequisites_not_self" CHECK ("course_prerequisites"."course_id" <> "course_prerequisites"."prerequisite_id")
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"sis_course_id" text,
	"program_id" integer,
	"course_code" text NOT NULL,
	"course_name" text NOT NULL,
	"clock_hours" numeric(6, 1),
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"syllabus_url" text,
	"textbooks" text,
	"lab_hours" numeric(6, 1),
	"lecture_hours" numeric(6, 1),
	"passing_grade" numeric(5, 2),
	"category" text,
	"credits" numeric(5, 2),
	"external_course_id" text,
	"department_code" text,
	"transfer_credits" boolean,
	"last_sync_date" timestamp with time zone,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "courses_clock_hours_check" CHECK ("courses"."clock_hours" is null or "courses"."clock_hours" between 1 and 150),
	CONSTRAINT "courses_passing_grade_check" CHECK ("courses"."passing_grade" is null or "courses"."passing_grade" between 0 and 100),
	CONSTRAINT "courses_hours_nonneg_check" CHECK (coalesce("courses"."lab_hours", 0) >= 0 and coalesce("courses"."lecture_hours", 0) >= 0 and coalesce("courses"."credits", 0) >= 0),
	CONSTRAINT "courses_category_check" CHECK ("courses"."category" is null or "courses"."category" in ('Core', 'Elective', 'Clinical')),
	CONSTRAINT "courses_sync_status_check" CHECK ("courses"."sync_status" is null or "courses"."sync_status" in ('pending', 'synced', 'failed', 'manual')),
	CONSTRAINT "courses_code_not_blank" CHECK (length(trim("courses"."course_code")) > 0 and length(trim("courses"."course_name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"sis_program_id" text,
	"program_name" text NOT NULL,
	"program_code" text,
	"duration_hours" numeric(7, 1),
	"credential_type" text,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"start_date" date,
	"end_date" date,
	"accreditation_body" text,
	"program_director" text,
	"tuition_cost" numeric(12, 2),
	"capacity" integer,
	"campus_location" text,
	"external_program_id" text,
	"regulatory_code" text,
	"last_sync_date" timestamp with time zone,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programs_duration_hours_check" CHECK ("programs"."duration_hours" is null or "programs"."duration_hours" between 50 and 350),
	CONSTRAINT "programs_credential_type_check" CHECK ("programs"."credential_type" is null or "programs"."credential_type" in ('Certificate', 'Diploma', 'Associate Degree')),
	CONSTRAINT "programs_status_check" CHECK ("programs"."status" is null or "programs"."status" in ('active', 'inactive', 'suspended')),
	CONSTRAINT "programs_sync_status_check" CHECK ("programs"."sync_status" is null or "programs"."sync_status" in ('pending', 'synced', 'failed', 'manual')),
	CONSTRAINT "programs_dates_check" CHECK ("programs"."end_date" is null or "programs"."start_date" is null or "programs"."end_date" >= "programs"."start_date"),
	CONSTRAINT "programs_capacity_check" CHECK ("programs"."capacity" is null or "programs"."capacity" >= 0),
	CONSTRAINT "programs_tuition_check" CHECK ("programs"."tuition_cost" is null or "programs"."tuition_cost" >= 0),
	CONSTRAINT "programs_name_not_blank" CHECK (length(trim("programs"."program_name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" serial PRIMARY KEY NOT NULL,
	"sis_student_id" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"program_id" integer,
	"enrollment_date" date,
	"status" text DEFAULT 'enrolled' NOT NULL,
	"date_of_birth" date,
	"address" text,
	"emergency_contact" text,
	"ssn_encrypted" text,
	"ssn_last4" text,
	"financial_aid" text,
	"veteran_status" boolean,
	"graduation_date" date,
	"external_student_id" text,
	"national_student_id" text,
	"transcript_id" text,
	"last_sync_date" timestamp with time zone,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "students_status_check" CHECK ("students"."status" is null or "students"."status" in ('enrolled', 'active', 'on_leave', 'suspended', 'withdrawn', 'graduated', 'inactive')),
	CONSTRAINT "students_sync_status_check" CHECK ("students"."sync_status" is null or "students"."sync_status" in ('pending', 'synced', 'failed', 'manual')),
	CONSTRAINT "students_name_not_blank" CHECK (length(trim("students"."first_name")) > 0 and length(trim("students"."last_name")) > 0),
	CONSTRAINT "students_ssn_last4_check" CHECK ("students"."ssn_last4" is null or "students"."ssn_last4" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
CREATE TABLE "schedule_rosters" (
	"schedule_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_rosters_schedule_id_student_id_pk" PRIMARY KEY("schedule_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"sis_schedule_id" text,
	"course_id" integer NOT NULL,
	"instructor_id" integer,
	"cohort_number" integer NOT NULL,
	"term_number" integer NOT NULL,
	"day_of_week" integer NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"room_number" text,
	"course_start_date" date NOT NULL,
	"course_end_date" date NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"room" text,
	"capacity" integer,
	"notes" text,
	"holiday_exceptions" date[] DEFAULT '{}'::date[] NOT NULL,
	"makeup_dates" date[] DEFAULT '{}'::date[] NOT NULL,
	"grading_policy" text,
	"term" text,
	"external_schedule_id" text,
	"academic_year" text,
	"registration_code" text,
	"last_sync_date" timestamp with time zone,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_cohort_check" CHECK ("schedules"."cohort_number" between 1 and 30),
	CONSTRAINT "schedules_term_check" CHECK ("schedules"."term_number" between 1 and 4),
	CONSTRAINT "schedules_day_of_week_check" CHECK ("schedules"."day_of_week" between 0 and 6),
	CONSTRAINT "schedules_times_check" CHECK ("schedules"."start_time" <> "schedules"."end_time"),
	CONSTRAINT "schedules_dates_check" CHECK ("schedules"."course_end_date" >= "schedules"."course_start_date"),
	CONSTRAINT "schedules_capacity_check" CHECK ("schedules"."capacity" is null or "schedules"."capacity" >= 0),
	CONSTRAINT "schedules_sync_status_check" CHECK ("schedules"."sync_status" is null or "schedules"."sync_status" in ('pending', 'synced', 'failed', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "attendance_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"qr_session_id" integer,
	"session_date" date NOT NULL,
	"status" text NOT NULL,
	"scan_in_time" timestamp with time zone,
	"scan_out_time" timestamp with time zone,
	"client_scan_in_time" timestamp with time zone,
	"minutes_attended" integer,
	"scheduled_minutes" integer,
	"is_manual_override" boolean DEFAULT false NOT NULL,
	"override_reason" text,
	"overridden_by" integer,
	"overridden_at" timestamp with time zone,
	"source" text NOT NULL,
	"device_id" text,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_status_check" CHECK ("attendance_records"."status" is null or "attendance_records"."status" in ('present', 'late', 'absent', 'incomplete', 'excused')),
	CONSTRAINT "attendance_source_check" CHECK ("attendance_records"."source" is null or "attendance_records"."source" in ('qr', 'manual', 'auto')),
	CONSTRAINT "attendance_sync_status_check" CHECK ("attendance_records"."sync_status" is null or "attendance_records"."sync_status" in ('pending', 'synced', 'failed', 'manual')),
	CONSTRAINT "attendance_minutes_check" CHECK (coalesce("attendance_records"."minutes_attended", 0) >= 0 and coalesce("attendance_records"."scheduled_minutes", 0) >= 0),
	CONSTRAINT "attendance_scan_order_check" CHECK ("attendance_records"."scan_out_time" is null or "attendance_records"."scan_in_time" is null or "attendance_records"."scan_out_time" >= "attendance_records"."scan_in_time"),
	CONSTRAINT "attendance_override_reason_check" CHECK (not "attendance_records"."is_manual_override" or length(trim(coalesce("attendance_records"."override_reason", ''))) > 0)
);
--> statement-breakpoint
CREATE TABLE "qr_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" integer NOT NULL,
	"created_by" integer,
	"token_secret" "bytea" NOT NULL,
	"session_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "qr_sessions_expiry_check" CHECK ("qr_sessions"."expires_at" > "qr_sessions"."created_at")
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"table_name" text NOT NULL,
	"record_id" text,
	"ip_address" text,
	"old_values" jsonb,
	"new_values" jsonb
);
--> statement-breakpoint
CREATE TABLE "school_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"late_threshold_minutes" integer DEFAULT 10 NOT NULL,
	"early_leave_threshold_minutes" integer DEFAULT 10 NOT NULL,
	"qr_code_expiration_minutes" integer DEFAULT 30 NOT NULL,
	"auto_mark_absent_hours" integer DEFAULT 2 NOT NULL,
	"enable_bluetooth_verification" boolean DEFAULT true NOT NULL,
	"allow_instructor_override" boolean DEFAULT true NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"email_notifications" boolean DEFAULT true NOT NULL,
	"sms_notifications" boolean DEFAULT false NOT NULL,
	"weekly_reports" boolean DEFAULT true NOT NULL,
	"low_attendance_alerts" boolean DEFAULT true NOT NULL,
	"system_maintenance_notices" boolean DEFAULT true NOT NULL,
	"session_timeout_minutes" integer DEFAULT 60 NOT NULL,
	"require_password_change" boolean DEFAULT false NOT NULL,
	"two_factor_authentication" boolean DEFAULT false NOT NULL,
	"enable_audit_logging" boolean DEFAULT true NOT NULL,
	"data_retention_years" integer DEFAULT 7 NOT NULL,
	"max_file_upload_size_mb" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "school_settings_single_row" CHECK ("school_settings"."id"),
	CONSTRAINT "settings_late_threshold_check" CHECK ("school_settings"."late_threshold_minutes" between 0 and 120),
	CONSTRAINT "settings_early_leave_check" CHECK ("school_settings"."early_leave_threshold_minutes" between 0 and 120),
	CONSTRAINT "settings_qr_expiry_check" CHECK ("school_settings"."qr_code_expiration_minutes" between 1 and 240),
	CONSTRAINT "settings_auto_absent_check" CHECK ("school_settings"."auto_mark_absent_hours" between 1 and 72),
	CONSTRAINT "settings_session_timeout_check" CHECK ("school_settings"."session_timeout_minutes" between 5 and 1440),
	CONSTRAINT "settings_retention_check" CHECK ("school_settings"."data_retention_years" between 1 and 50),
	CONSTRAINT "settings_upload_size_check" CHECK ("school_settings"."max_file_upload_size_mb" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "file_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"upload_type" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"errors" jsonb,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "file_uploads_type_check" CHECK ("file_uploads"."upload_type" is null or "file_uploads"."upload_type" in ('programs', 'courses', 'instructors', 'students', 'schedules')),
	CONSTRAINT "file_uploads_status_check" CHECK ("file_uploads"."status" is null or "file_uploads"."status" in ('processing', 'completed', 'failed', 'validated')),
	CONSTRAINT "file_uploads_size_check" CHECK ("file_uploads"."file_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wizard_progress" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"completed_steps" integer[] DEFAULT '{}'::int[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "wizard_progress_single_row" CHECK ("wizard_progress"."id"),
	CONSTRAINT "wizard_progress_step_check" CHECK ("wizard_progress"."current_step" between 1 and 5),
	CONSTRAINT "wizard_completed_steps_check" CHECK ("wizard_progress"."completed_steps" <@ array[1,2,3,4,5])
);
--> statement-breakpoint
ALTER TABLE "instructor_profiles" ADD CONSTRAINT "instructor_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_sessions" ADD CONSTRAINT "login_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_prerequisites" ADD CONSTRAINT "course_prerequisites_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_prerequisites" ADD CONSTRAINT "course_prerequisites_prerequisite_id_courses_id_fk" FOREIGN KEY ("prerequisite_id") REFERENCES "public"."courses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_rosters" ADD CONSTRAINT "schedule_rosters_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_rosters" ADD CONSTRAINT "schedule_rosters_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_instructor_id_users_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_qr_session_id_qr_sessions_id_fk" FOREIGN KEY ("qr_session_id") REFERENCES "public"."qr_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_overridden_by_users_id_fk" FOREIGN KEY ("overridden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sessions" ADD CONSTRAINT "qr_sessions_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sessions" ADD CONSTRAINT "qr_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "school_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_uploads" ADD CONSTRAINT "file_uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wizard_progress" ADD CONSTRAINT "wizard_progress_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "instructor_employee_id_unique" ON "instructor_profiles" USING btree ("employee_id");--> statement-breakpoint
CREATE INDEX "login_sessions_user_idx" ON "login_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "login_sessions_created_idx" ON "login_sessions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_sis_user_id_unique" ON "users" USING btree ("sis_user_id");--> statement-breakpoint
CREATE INDEX "course_prerequisites_prereq_idx" ON "course_prerequisites" USING btree ("prerequisite_id");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_sis_course_id_unique" ON "courses" USING btree ("sis_course_id");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_course_code_unique" ON "courses" USING btree (lower("course_code"));--> statement-breakpoint
CREATE INDEX "courses_program_idx" ON "courses" USING btree ("program_id");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_sis_program_id_unique" ON "programs" USING btree ("sis_program_id");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_program_code_unique" ON "programs" USING btree ("program_code");--> statement-breakpoint
CREATE UNIQUE INDEX "students_sis_student_id_unique" ON "students" USING btree ("sis_student_id");--> statement-breakpoint
CREATE INDEX "students_program_idx" ON "students" USING btree ("program_id");--> statement-breakpoint
CREATE INDEX "students_name_idx" ON "students" USING btree (lower("last_name"),lower("first_name"));--> statement-breakpoint
CREATE INDEX "students_email_idx" ON "students" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "schedule_rosters_student_idx" ON "schedule_rosters" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_sis_schedule_id_unique" ON "schedules" USING btree ("sis_schedule_id");--> statement-breakpoint
CREATE INDEX "schedules_instructor_idx" ON "schedules" USING btree ("instructor_id");--> statement-breakpoint
CREATE INDEX "schedules_course_idx" ON "schedules" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "schedules_day_idx" ON "schedules" USING btree ("day_of_week");--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_one_per_meeting" ON "attendance_records" USING btree ("schedule_id","student_id","session_date");--> statement-breakpoint
CREATE INDEX "attendance_session_date_idx" ON "attendance_records" USING btree ("session_date");--> statement-breakpoint
CREATE INDEX "attendance_student_idx" ON "attendance_records" USING btree ("student_id","session_date");--> statement-breakpoint
CREATE INDEX "attendance_qr_session_idx" ON "attendance_records" USING btree ("qr_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "qr_sessions_session_id_unique" ON "qr_sessions" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "qr_sessions_active_idx" ON "qr_sessions" USING btree ("is_active","expires_at");--> statement-breakpoint
CREATE INDEX "qr_sessions_schedule_idx" ON "qr_sessions" USING btree ("schedule_id","session_date");--> statement-breakpoint
CREATE UNIQUE INDEX "qr_sessions_one_open_per_schedule" ON "qr_sessions" USING btree ("schedule_id") WHERE "qr_sessions"."is_active";--> statement-breakpoint
CREATE INDEX "audit_logs_timestamp_idx" ON "audit_logs" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_table_idx" ON "audit_logs" USING btree ("table_name","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_user_idx" ON "audit_logs" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "file_uploads_created_idx" ON "file_uploads" USING btree ("created_at");