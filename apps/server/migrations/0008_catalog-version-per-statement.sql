-- The catalog version moved once per changed row, each time updating the same organizations
-- row: bulk changes cost the square of their size and held the organization's row for seconds.
-- Now statement-level triggers (transition tables tell which organizations a statement touched)
-- note a bump in catalog_bumps, and a deferred trigger applies one bump per organization when
-- the transaction commits: the organization row is locked for that moment only, not for the rest
-- of a long deletion. Same rule as before: any change that can alter a list page bumps the
-- version; download and install counters do not.
DROP TRIGGER applications_catalog_version ON applications;--> statement-breakpoint
DROP TRIGGER projects_catalog_version ON projects;--> statement-breakpoint
DROP TRIGGER versions_catalog_version ON versions;--> statement-breakpoint
DROP TRIGGER versions_catalog_version_update ON versions;--> statement-breakpoint
DROP TRIGGER project_members_catalog_version ON project_members;--> statement-breakpoint
DROP TRIGGER distributions_catalog_version ON distributions;--> statement-breakpoint
DROP FUNCTION bump_catalog_version();--> statement-breakpoint
DROP FUNCTION bump_catalog_version_of_project();--> statement-breakpoint
-- Rows live only inside the transaction that wrote them: the deferred trigger removes them.
CREATE TABLE catalog_bumps (organization_id bigint NOT NULL);--> statement-breakpoint
CREATE INDEX catalog_bumps_org_idx ON catalog_bumps (organization_id);--> statement-breakpoint
CREATE FUNCTION apply_catalog_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The first bump of an organization in this transaction applies it and clears the others.
  DELETE FROM catalog_bumps WHERE organization_id = NEW.organization_id;
  IF FOUND THEN
    UPDATE organizations SET catalog_version = catalog_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER catalog_bumps_apply AFTER INSERT ON catalog_bumps
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION apply_catalog_bump();
--> statement-breakpoint
CREATE FUNCTION bump_catalog_version_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_bumps (organization_id) SELECT DISTINCT organization_id FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_catalog_version_of_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_bumps (organization_id) SELECT DISTINCT organization_id FROM old_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_catalog_version_of_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_bumps (organization_id)
    SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An UPDATE trigger with a column list cannot see transition tables, so the listed columns are
-- compared here: an update of counters alone bumps nothing.
CREATE FUNCTION bump_catalog_version_of_updated_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT n.organization_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (o.organization_id, o.version, o.build_number, o.state, o.file_key, o.file_name, o.file_size,
           o.sha256, o.content_type, o.icon_key, o.universal_apk_key, o.universal_apk_size, o.bundle_id,
           o.min_os_version, o.build_info, o.whats_new, o.comment, o.ready_to_sale, o.git_branch,
           o.git_tag, o.git_commit, o.uploaded_by)
      IS DISTINCT FROM
          (n.organization_id, n.version, n.build_number, n.state, n.file_key, n.file_name, n.file_size,
           n.sha256, n.content_type, n.icon_key, n.universal_apk_key, n.universal_apk_size, n.bundle_id,
           n.min_os_version, n.build_info, n.whats_new, n.comment, n.ready_to_sale, n.git_branch,
           n.git_tag, n.git_commit, n.uploaded_by);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Install links: their install counter moves on every install, so it bumps nothing.
CREATE FUNCTION bump_catalog_version_of_updated_distributions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT n.organization_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (o.organization_id, o.key, o.access, o.expires_at, o.install_limit, o.version_id)
      IS DISTINCT FROM (n.organization_id, n.key, n.access, n.expires_at, n.install_limit, n.version_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_catalog_version_of_project_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT p.organization_id FROM projects p JOIN old_rows r ON r.project_id = p.id;
  ELSE
    INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT p.organization_id FROM projects p JOIN new_rows r ON r.project_id = p.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER applications_catalog_version_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER applications_catalog_version_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_updated_rows();
--> statement-breakpoint
CREATE TRIGGER applications_catalog_version_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_old_rows();
--> statement-breakpoint
CREATE TRIGGER projects_catalog_version_insert AFTER INSERT ON projects
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER projects_catalog_version_update AFTER UPDATE ON projects
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_updated_rows();
--> statement-breakpoint
CREATE TRIGGER projects_catalog_version_delete AFTER DELETE ON projects
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_old_rows();
--> statement-breakpoint
CREATE TRIGGER versions_catalog_version_insert AFTER INSERT ON versions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER versions_catalog_version_update AFTER UPDATE ON versions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_updated_versions();
--> statement-breakpoint
CREATE TRIGGER versions_catalog_version_delete AFTER DELETE ON versions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_old_rows();
--> statement-breakpoint
CREATE TRIGGER project_members_catalog_version_insert AFTER INSERT ON project_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_project_members();
--> statement-breakpoint
CREATE TRIGGER project_members_catalog_version_update AFTER UPDATE ON project_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_project_members();
--> statement-breakpoint
CREATE TRIGGER project_members_catalog_version_delete AFTER DELETE ON project_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_project_members();
--> statement-breakpoint
CREATE TRIGGER distributions_catalog_version_insert AFTER INSERT ON distributions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER distributions_catalog_version_update AFTER UPDATE ON distributions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_updated_distributions();
--> statement-breakpoint
CREATE TRIGGER distributions_catalog_version_delete AFTER DELETE ON distributions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_old_rows();
