ALTER TABLE "school_settings" ALTER COLUMN "enable_bluetooth_verification" SET DEFAULT false;--> statement-breakpoint
-- Check-ins are not verified by Bluetooth (decision 046): a school that never saved its settings
-- should not read "on" for a switch that does nothing.
UPDATE "school_settings" SET "enable_bluetooth_verification" = false WHERE "updated_by" IS NULL;
