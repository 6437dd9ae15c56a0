-- Schools name their cohorts ('PN-26A'); the number (1-30) stays the contract's key (decision 047).
ALTER TABLE "schedules" ADD COLUMN "cohort_name" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_cohort_name_check" CHECK ("schedules"."cohort_name" is null or length("schedules"."cohort_name") between 1 and 40);
