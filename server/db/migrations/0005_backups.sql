CREATE TABLE "backup_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"scheduled_for" text,
	"host" text NOT NULL,
	"file_path" text,
	"bytes" integer,
	"error" text,
	"requested_by" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "backup_runs_trigger_check" CHECK ("backup_runs"."trigger" is null or "backup_runs"."trigger" in ('scheduled', 'manual', 'cli')),
	CONSTRAINT "backup_runs_status_check" CHECK ("backup_runs"."status" is null or "backup_runs"."status" in ('running', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "backup_time_of_day" text DEFAULT '02:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "backups_to_keep" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_runs" ADD CONSTRAINT "backup_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_runs_one_scheduled_per_day" ON "backup_runs" USING btree ("scheduled_for");--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "settings_backup_time_check" CHECK ("school_settings"."backup_time_of_day" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "settings_backups_to_keep_check" CHECK ("school_settings"."backups_to_keep" between 1 and 365);