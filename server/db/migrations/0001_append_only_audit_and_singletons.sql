-- The audit log is append-only. Only the retention job may delete old entries, and it must say so
-- with `set local muster.audit_purge = 'on'` inside its transaction.
CREATE OR REPLACE FUNCTION audit_logs_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('muster.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_logs is append-only (% refused)', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON audit_logs
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
--> statement-breakpoint
INSERT INTO school_settings (id) VALUES (true) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO wizard_progress (id) VALUES (true) ON CONFLICT DO NOTHING;
