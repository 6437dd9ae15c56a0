CREATE TABLE "student_leaves" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"reason" text NOT NULL,
	"status_before" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_leaves_dates_check" CHECK ("student_leaves"."end_date" >= "student_leaves"."start_date"),
	CONSTRAINT "student_leaves_reason_not_blank" CHECK (length(trim("student_leaves"."reason")) > 0)
);
--> statement-breakpoint
CREATE TABLE "student_withdrawals" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"withdrawal_date" date NOT NULL,
	"determination_date" date NOT NULL,
	"last_date_of_attendance" date,
	"reason" text NOT NULL,
	"status_before" text NOT NULL,
	"recorded_by" integer,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "students" DROP CONSTRAINT "students_status_check";--> statement-breakpoint
-- The leave status is called `loa` from issue 13 on.
UPDATE "students" SET "status" = 'loa' WHERE "status" = 'on_leave';--> statement-breakpoint
ALTER TABLE "program_policies" ADD COLUMN "attendance_edit_lock_days" integer;--> statement-breakpoint
ALTER TABLE "student_leaves" ADD CONSTRAINT "student_leaves_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_leaves" ADD CONSTRAINT "student_leaves_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_withdrawals" ADD CONSTRAINT "student_withdrawals_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_withdrawals" ADD CONSTRAINT "student_withdrawals_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_leaves_student_idx" ON "student_leaves" USING btree ("student_id","start_date");--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_status_check" CHECK ("students"."status" is null or "students"."status" in ('enrolled', 'active', 'loa', 'suspended', 'withdrawn', 'graduated', 'inactive'));