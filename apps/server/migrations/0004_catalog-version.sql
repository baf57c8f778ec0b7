ALTER TABLE "organizations" ADD COLUMN "catalog_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Any change that can alter a list page bumps the organization's catalog version, so cached pages
-- are never served stale, whichever code path (or instance) made the change. Download and install
-- counters are left out on purpose: they change on every download and may lag by the cache age.
CREATE FUNCTION bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE organizations SET catalog_version = catalog_version + 1 WHERE id = OLD.organization_id;
    RETURN OLD;
  END IF;
  UPDATE organizations SET catalog_version = catalog_version + 1 WHERE id = NEW.organization_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_catalog_version_of_project() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET catalog_version = catalog_version + 1
  WHERE id = (SELECT organization_id FROM projects WHERE id = COALESCE(NEW.project_id, OLD.project_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER applications_catalog_version AFTER INSERT OR UPDATE OR DELETE ON applications
  FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER projects_catalog_version AFTER INSERT OR UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER versions_catalog_version AFTER INSERT OR DELETE ON versions
  FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER versions_catalog_version_update AFTER UPDATE OF version, build_number, state, file_key,
  file_name, file_size, sha256, content_type, icon_key, universal_apk_key, universal_apk_size, bundle_id,
  min_os_version, build_info, whats_new, comment, ready_to_sale, git_branch, git_tag, git_commit,
  uploaded_by ON versions
  FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER project_members_catalog_version AFTER INSERT OR UPDATE OR DELETE ON project_members
  FOR EACH ROW EXECUTE FUNCTION bump_catalog_version_of_project();
