CREATE TABLE "students_at_risk_daily" (
	"scope_key" text NOT NULL,
	"as_of" date NOT NULL,
	"students" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "students_at_risk_daily_scope_key_as_of_pk" PRIMARY KEY("scope_key","as_of")
);
