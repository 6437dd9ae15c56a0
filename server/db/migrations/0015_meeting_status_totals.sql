CREATE TABLE "meeting_status_totals" (
	"schedule_id" integer NOT NULL,
	"session_date" date NOT NULL,
	"status" text NOT NULL,
	"records" integer NOT NULL,
	"minutes_attended" bigint NOT NULL,
	"scheduled_minutes" bigint NOT NULL,
	CONSTRAINT "meeting_status_totals_schedule_id_session_date_status_pk" PRIMARY KEY("schedule_id","session_date","status")
);
--> statement-breakpoint
CREATE INDEX "meeting_status_totals_date_idx" ON "meeting_status_totals" USING btree ("session_date");