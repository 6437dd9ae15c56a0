CREATE TABLE "student_opening_balances" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"before_date" date NOT NULL,
	"scheduled_minutes" integer NOT NULL,
	"credited_minutes" integer NOT NULL,
	"period_credits" jsonb,
	"last_date_of_attendance" date,
	"note" text NOT NULL,
	"entered_by" integer,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_opening_balances_minutes_check" CHECK ("student_opening_balances"."scheduled_minutes" >= 0 and "student_opening_balances"."credited_minutes" >= 0),
	CONSTRAINT "student_opening_balances_lda_check" CHECK ("student_opening_balances"."last_date_of_attendance" is null or "student_opening_balances"."last_date_of_attendance" < "student_opening_balances"."before_date")
);
--> statement-breakpoint
ALTER TABLE "school_settings" ADD COLUMN "records_start_date" date;--> statement-breakpoint
ALTER TABLE "program_policies" ADD COLUMN "records_start_date" date;--> statement-breakpoint
ALTER TABLE "student_opening_balances" ADD CONSTRAINT "student_opening_balances_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_opening_balances" ADD CONSTRAINT "student_opening_balances_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;