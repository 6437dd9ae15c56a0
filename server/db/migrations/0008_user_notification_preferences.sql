CREATE TABLE "user_notification_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"email_notifications" boolean,
	"sms_notifications" boolean,
	"weekly_reports" boolean,
	"low_attendance_alerts" boolean,
	"system_maintenance_notices" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_notification_preferences" ADD CONSTRAINT "user_notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;