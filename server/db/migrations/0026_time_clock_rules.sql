CREATE TABLE "program_time_clock_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"program_id" integer NOT NULL,
	"effective_from" date,
	"missing_check_out" text NOT NULL,
	"rounding" text NOT NULL,
	"rounding_minutes" integer NOT NULL,
	"grace_minutes" integer NOT NULL,
	"meal_after_minutes" integer,
	"meal_minutes" integer,
	"daily_max_minutes" integer,
	"weekly_max_minutes" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_time_clock_versions_missing_check_out_check" CHECK ("program_time_clock_versions"."missing_check_out" is not null and ("program_time_clock_versions"."missing_check_out" is null or "program_time_clock_versions"."missing_check_out" in ('no_credit', 'credit_to_scheduled_end', 'auto_check_out_flagged'))),
	CONSTRAINT "program_time_clock_versions_rounding_check" CHECK ("program_time_clock_versions"."rounding" is not null and ("program_time_clock_versions"."rounding" is null or "program_time_clock_versions"."rounding" in ('none', 'nearest', 'down', 'up'))),
	CONSTRAINT "program_time_clock_versions_minutes_check" CHECK ("program_time_clock_versions"."rounding_minutes" between 1 and 30 and "program_time_clock_versions"."grace_minutes" between 0 and 60),
	CONSTRAINT "program_time_clock_versions_meal_check" CHECK (("program_time_clock_versions"."meal_after_minutes" is null and "program_time_clock_versions"."meal_minutes" is null) or ("program_time_clock_versions"."meal_after_minutes" between 60 and 960 and "program_time_clock_versions"."meal_minutes" between 1 and 120)),
	CONSTRAINT "program_time_clock_versions_caps_check" CHECK (("program_time_clock_versions"."daily_max_minutes" is null or "program_time_clock_versions"."daily_max_minutes" between 60 and 1440) and ("program_time_clock_versions"."weekly_max_minutes" is null or "program_time_clock_versions"."weekly_max_minutes" between 60 and 10080))
);
--> statement-breakpoint
ALTER TABLE "program_time_clock_versions" ADD CONSTRAINT "program_time_clock_versions_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_time_clock_versions" ADD CONSTRAINT "program_time_clock_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "program_time_clock_versions_program_date_unique" ON "program_time_clock_versions" USING btree ("program_id","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "program_time_clock_versions_program_base_unique" ON "program_time_clock_versions" USING btree ("program_id") WHERE "program_time_clock_versions"."effective_from" is null;--> statement-breakpoint
-- Every program that exists keeps Muster's behaviour until now (a missing check-out earns up to the
-- class end; no rounding, deduction or caps), from the beginning: no history changes silently.
INSERT INTO "program_time_clock_versions" ("program_id", "effective_from", "missing_check_out", "rounding", "rounding_minutes", "grace_minutes")
SELECT "id", NULL, 'credit_to_scheduled_end', 'none', 15, 0 FROM "programs";
