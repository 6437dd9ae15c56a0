CREATE TABLE "sis_exports" (
	"table_name" text PRIMARY KEY NOT NULL,
	"last_exported_at" timestamp with time zone NOT NULL,
	"records" integer NOT NULL
);
