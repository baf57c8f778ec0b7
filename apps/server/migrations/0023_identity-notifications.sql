-- Any change to accounts, tokens, memberships or organizations notifies identity_changed, once
-- per statement (and once per transaction: PostgreSQL folds equal notifications at commit). The
-- embedded database's own process listens and drops its cached token and membership lookups;
-- with PostgreSQL nobody listens and the notification costs next to nothing.
CREATE FUNCTION notify_identity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('identity_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER auth_tokens_identity_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON auth_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();--> statement-breakpoint
CREATE TRIGGER users_identity_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();--> statement-breakpoint
CREATE TRIGGER memberships_identity_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();--> statement-breakpoint
CREATE TRIGGER organizations_identity_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();
