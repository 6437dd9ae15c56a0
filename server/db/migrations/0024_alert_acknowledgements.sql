-- Acknowledged low-attendance alerts (issue 28, decision 048): the alert's id and the reason it fired for then.
CREATE TABLE "alert_acknowledgements" (
	"id" serial PRIMARY KEY NOT NULL,
	"alert_id" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"acknowledged_by" integer,
	"acknowledged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_acknowledgements" ADD CONSTRAINT "alert_acknowledgements_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_acknowledgements_alert_idx" ON "alert_acknowledgements" USING btree ("alert_id","acknowledged_at");
