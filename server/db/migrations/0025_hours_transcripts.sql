CREATE TABLE "student_hours_transcripts" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"exit_date" date NOT NULL,
	"ledger" jsonb NOT NULL,
	"records_removed" integer NOT NULL,
	"frozen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "student_hours_transcripts" ADD CONSTRAINT "student_hours_transcripts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE restrict ON UPDATE no action;
