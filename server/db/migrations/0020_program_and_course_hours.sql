ALTER TABLE "courses" DROP CONSTRAINT "courses_clock_hours_check";--> statement-breakpoint
ALTER TABLE "programs" DROP CONSTRAINT "programs_duration_hours_check";--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_clock_hours_check" CHECK ("courses"."clock_hours" is null or "courses"."clock_hours" between 1 and 2000);--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_duration_hours_check" CHECK ("programs"."duration_hours" is null or "programs"."duration_hours" between 1 and 10000);--> statement-breakpoint
-- One figure (decision 040): a program's hours are programs.duration_hours, which the clock-hour
-- policy reads as its programHours. A policy that set programHours gives it to its program; where
-- the program had other hours, the policy's win, because they are the hours the ledger counted.
UPDATE "programs" p SET "duration_hours" = pp."program_hours", "updated_at" = now()
  FROM "program_policies" pp
  WHERE pp."program_id" = p."id" AND pp."program_hours" IS NOT NULL AND p."duration_hours" IS DISTINCT FROM pp."program_hours";
--> statement-breakpoint
UPDATE "program_policies" pp SET "program_hours" = p."duration_hours"
  FROM "programs" p
  WHERE p."id" = pp."program_id" AND pp."program_hours" IS DISTINCT FROM p."duration_hours";
--> statement-breakpoint
-- program_policies.program_hours stays as a mirror nothing reads, kept equal both ways, so a writer
-- that still names it (tests, bench/hours.ts, SQL by hand) sets the program's hours.
CREATE FUNCTION program_hours_to_policy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE program_policies SET program_hours = NEW.duration_hours
    WHERE program_id = NEW.id AND program_hours IS DISTINCT FROM NEW.duration_hours;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER program_hours_to_policy AFTER UPDATE OF duration_hours ON programs
  FOR EACH ROW WHEN (NEW.duration_hours IS DISTINCT FROM OLD.duration_hours) EXECUTE FUNCTION program_hours_to_policy();
--> statement-breakpoint
-- A new policy row without hours starts with the program's.
CREATE FUNCTION policy_hours_from_program() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.program_hours IS NULL THEN
    SELECT duration_hours INTO NEW.program_hours FROM programs WHERE id = NEW.program_id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_hours_from_program BEFORE INSERT ON program_policies
  FOR EACH ROW EXECUTE FUNCTION policy_hours_from_program();
--> statement-breakpoint
-- Hours written on the policy row are the program's.
CREATE FUNCTION policy_hours_to_program() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE programs SET duration_hours = NEW.program_hours, updated_at = now()
    WHERE id = NEW.program_id AND duration_hours IS DISTINCT FROM NEW.program_hours;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_hours_to_program AFTER INSERT OR UPDATE OF program_hours ON program_policies
  FOR EACH ROW EXECUTE FUNCTION policy_hours_to_program();
