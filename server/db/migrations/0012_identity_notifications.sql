CREATE TABLE "user_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_notices_window_check" CHECK ("maintenance_notices"."ends_at" > "maintenance_notices"."starts_at"),
	CONSTRAINT "maintenance_notices_message_not_blank" CHECK (length(trim("maintenance_notices"."message")) > 0)
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"text_body" text NOT NULL,
	"html_body" text,
	"user_id" integer,
	"student_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"message_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_messages_channel_check" CHECK ("outbox_messages"."channel" is null or "outbox_messages"."channel" in ('email', 'sms')),
	CONSTRAINT "outbox_messages_status_check" CHECK ("outbox_messages"."status" is null or "outbox_messages"."status" in ('queued', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "student_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"rule" text NOT NULL,
	"details" jsonb NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_hours_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_opened_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "login_sessions" ADD COLUMN "pending_step" text;--> statement-breakpoint
ALTER TABLE "login_sessions" ADD COLUMN "auth_method" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enrolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "notices_opt_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "password_max_age_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "local_sign_in_disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "program_policies" ADD COLUMN "consecutive_absence_alert" integer;--> statement-breakpoint
ALTER TABLE "program_policies" ADD COLUMN "alert_copy_to_student" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_notices" ADD CONSTRAINT "maintenance_notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_alerts" ADD CONSTRAINT "student_alerts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_hours_links" ADD CONSTRAINT "student_hours_links_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_recovery_codes_unique" ON "user_recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
CREATE INDEX "maintenance_notices_window_idx" ON "maintenance_notices" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_due_idx" ON "outbox_messages" USING btree ("next_attempt_at") WHERE "outbox_messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_messages_status_idx" ON "outbox_messages" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "student_alerts_student_rule_idx" ON "student_alerts" USING btree ("student_id","rule","fired_at");--> statement-breakpoint
CREATE INDEX "student_hours_links_expires_idx" ON "student_hours_links" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_unique" ON "users" USING btree ("oidc_subject");--> statement-breakpoint
ALTER TABLE "login_sessions" ADD CONSTRAINT "login_sessions_pending_step_check" CHECK ("login_sessions"."pending_step" is null or "login_sessions"."pending_step" in ('password_change', 'totp_enrol', 'totp'));--> statement-breakpoint
ALTER TABLE "login_sessions" ADD CONSTRAINT "login_sessions_auth_method_check" CHECK ("login_sessions"."auth_method" is null or "login_sessions"."auth_method" in ('password', 'sso'));--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "settings_password_age_check" CHECK ("school_settings"."password_max_age_days" between 30 and 3650);--> statement-breakpoint
ALTER TABLE "program_policies" ADD CONSTRAINT "program_policies_consecutive_absence_check" CHECK ("program_policies"."consecutive_absence_alert" is null or "program_policies"."consecutive_absence_alert" between 2 and 30);--> statement-breakpoint
-- When each existing password was set is unknown; the account's creation is the honest lower bound.
UPDATE "users" SET "password_changed_at" = "created_at";
