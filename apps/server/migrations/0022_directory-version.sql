-- The organization's directory version: what staff and tester lists are cached by.
ALTER TABLE "organizations" ADD COLUMN "directory_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The directory version moves like the catalog version (0008): statement-level triggers note the
-- organizations a statement touched in directory_bumps, and a deferred trigger applies one bump
-- per organization when the transaction commits.
CREATE TABLE directory_bumps (organization_id bigint NOT NULL);--> statement-breakpoint
CREATE INDEX directory_bumps_org_idx ON directory_bumps (organization_id);--> statement-breakpoint
CREATE FUNCTION apply_directory_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM directory_bumps WHERE organization_id = NEW.organization_id;
  IF FOUND THEN
    UPDATE organizations SET directory_version = directory_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER directory_bumps_apply AFTER INSERT ON directory_bumps
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION apply_directory_bump();
--> statement-breakpoint
CREATE FUNCTION bump_directory_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_bumps (organization_id) SELECT DISTINCT organization_id FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_directory_of_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_bumps (organization_id) SELECT DISTINCT organization_id FROM old_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bump_directory_of_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_bumps (organization_id)
    SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Rows that name their organization through a parent: team members, tester group members and
-- project members.
CREATE FUNCTION bump_directory_through_parent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'team_members' THEN
    INSERT INTO directory_bumps (organization_id)
      SELECT DISTINCT t.organization_id FROM teams t
      WHERE t.id IN (SELECT team_id FROM changed_rows);
  ELSIF TG_TABLE_NAME = 'tester_group_members' THEN
    INSERT INTO directory_bumps (organization_id)
      SELECT DISTINCT g.organization_id FROM tester_groups g
      WHERE g.id IN (SELECT group_id FROM changed_rows);
  ELSE
    INSERT INTO directory_bumps (organization_id)
      SELECT DISTINCT p.organization_id FROM projects p
      WHERE p.id IN (SELECT project_id FROM changed_rows);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A person's name, address or state shows in the staff lists of every organization they belong to.
CREATE FUNCTION bump_directory_of_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_bumps (organization_id)
    SELECT DISTINCT m.organization_id FROM memberships m
    JOIN new_rows n ON n.id = m.user_id JOIN old_rows o ON o.id = n.id
    WHERE (o.email, o.first_name, o.last_name, o.is_active, o.two_factor_enabled)
      IS DISTINCT FROM (n.email, n.first_name, n.last_name, n.is_active, n.two_factor_enabled);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_directory_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_new_rows();--> statement-breakpoint
CREATE TRIGGER memberships_directory_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER memberships_directory_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_old_rows();--> statement-breakpoint
CREATE TRIGGER teams_directory_insert AFTER INSERT ON teams
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_new_rows();--> statement-breakpoint
CREATE TRIGGER teams_directory_update AFTER UPDATE ON teams
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER teams_directory_delete AFTER DELETE ON teams
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_old_rows();--> statement-breakpoint
CREATE TRIGGER testers_directory_insert AFTER INSERT ON testers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_new_rows();--> statement-breakpoint
CREATE TRIGGER testers_directory_update AFTER UPDATE ON testers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER testers_directory_delete AFTER DELETE ON testers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_old_rows();--> statement-breakpoint
CREATE TRIGGER tester_groups_directory_insert AFTER INSERT ON tester_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_new_rows();--> statement-breakpoint
CREATE TRIGGER tester_groups_directory_update AFTER UPDATE ON tester_groups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER tester_groups_directory_delete AFTER DELETE ON tester_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_old_rows();--> statement-breakpoint
CREATE TRIGGER team_members_directory_insert AFTER INSERT ON team_members
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER team_members_directory_delete AFTER DELETE ON team_members
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER tester_group_members_directory_insert AFTER INSERT ON tester_group_members
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER tester_group_members_directory_delete AFTER DELETE ON tester_group_members
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER project_members_directory_insert AFTER INSERT ON project_members
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER project_members_directory_update AFTER UPDATE ON project_members
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER project_members_directory_delete AFTER DELETE ON project_members
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_through_parent();--> statement-breakpoint
CREATE TRIGGER users_directory_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_directory_of_people();
