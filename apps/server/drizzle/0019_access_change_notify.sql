-- Every change to who may call the API is announced on the `access_changes` channel, so each
-- server node's principal cache (SESSION_CACHE_MS) drops it at once, whoever wrote it: another
-- node, a migration, the CLI or raw SQL. Payload '<scope>:<user id>', or '<scope>:' for every user
-- of the scope (TRUNCATE). Arguments: the scope, and the column holding the user's id.
CREATE FUNCTION notify_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_user text;
  new_user text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('access_changes', TG_ARGV[0] || ':');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_user := to_jsonb(OLD) ->> TG_ARGV[1]; END IF;
  IF TG_OP <> 'DELETE' THEN new_user := to_jsonb(NEW) ->> TG_ARGV[1]; END IF;
  -- The staff guard's throttled last_seen_at write changes no principal: not worth a message.
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'sessions' AND (to_jsonb(NEW) - 'last_seen_at') = (to_jsonb(OLD) - 'last_seen_at') THEN
    RETURN NULL;
  END IF;
  IF old_user IS NOT NULL THEN PERFORM pg_notify('access_changes', TG_ARGV[0] || ':' || old_user); END IF;
  IF new_user IS NOT NULL AND new_user IS DISTINCT FROM old_user THEN PERFORM pg_notify('access_changes', TG_ARGV[0] || ':' || new_user); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A new session or account cannot make a cached one stale; a new (or activated) factor can.
CREATE TRIGGER sessions_access_change AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION notify_access_change('staff', 'user_id');
--> statement-breakpoint
CREATE TRIGGER staff_users_access_change AFTER UPDATE OR DELETE ON staff_users FOR EACH ROW EXECUTE FUNCTION notify_access_change('staff', 'id');
--> statement-breakpoint
CREATE TRIGGER staff_factors_access_change AFTER INSERT OR UPDATE OR DELETE ON staff_factors FOR EACH ROW EXECUTE FUNCTION notify_access_change('staff', 'user_id');
--> statement-breakpoint
CREATE TRIGGER app_sessions_access_change AFTER UPDATE OR DELETE ON app_sessions FOR EACH ROW EXECUTE FUNCTION notify_access_change('app', 'user_id');
--> statement-breakpoint
CREATE TRIGGER app_users_access_change AFTER UPDATE OR DELETE ON app_users FOR EACH ROW EXECUTE FUNCTION notify_access_change('app', 'id');
--> statement-breakpoint
CREATE TRIGGER sessions_access_truncate AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change('staff', 'user_id');
--> statement-breakpoint
CREATE TRIGGER staff_users_access_truncate AFTER TRUNCATE ON staff_users FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change('staff', 'id');
--> statement-breakpoint
CREATE TRIGGER staff_factors_access_truncate AFTER TRUNCATE ON staff_factors FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change('staff', 'user_id');
--> statement-breakpoint
CREATE TRIGGER app_sessions_access_truncate AFTER TRUNCATE ON app_sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change('app', 'user_id');
--> statement-breakpoint
CREATE TRIGGER app_users_access_truncate AFTER TRUNCATE ON app_users FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change('app', 'id');
