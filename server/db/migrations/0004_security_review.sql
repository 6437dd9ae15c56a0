CREATE TABLE "check_in_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"attendance_record_id" integer NOT NULL,
	"reason" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"status" text DEFAULT 'flagged' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "check_in_flags_reason_check" CHECK ("check_in_flags"."reason" is null or "check_in_flags"."reason" in ('shared_browser', 'dropped_cookie')),
	CONSTRAINT "check_in_flags_status_check" CHECK ("check_in_flags"."status" is null or "check_in_flags"."status" in ('flagged', 'confirmed', 'cleared'))
);
--> statement-breakpoint
CREATE TABLE "check_in_origins" (
	"attendance_record_id" integer PRIMARY KEY NOT NULL,
	"qr_session_id" integer NOT NULL,
	"ip_address" text,
	"browser_signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "installation_facts" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limit_counters_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "setup_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "session_lifetime_hours" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "check_in_flags" ADD CONSTRAINT "check_in_flags_attendance_record_id_attendance_records_id_fk" FOREIGN KEY ("attendance_record_id") REFERENCES "public"."attendance_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_flags" ADD CONSTRAINT "check_in_flags_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_origins" ADD CONSTRAINT "check_in_origins_attendance_record_id_attendance_records_id_fk" FOREIGN KEY ("attendance_record_id") REFERENCES "public"."attendance_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_flags_record_idx" ON "check_in_flags" USING btree ("attendance_record_id");--> statement-breakpoint
CREATE INDEX "check_in_origins_session_idx" ON "check_in_origins" USING btree ("qr_session_id","ip_address","browser_signature","created_at");--> statement-breakpoint
CREATE INDEX "known_devices_user_idx" ON "known_devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rate_limit_counters_expires_idx" ON "rate_limit_counters" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "settings_session_lifetime_check" CHECK ("school_settings"."session_lifetime_hours" between 1 and 168);