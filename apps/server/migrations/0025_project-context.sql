ALTER TABLE "projects" ADD COLUMN "context_json" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- What an app's record takes from its project (its title, the project's apps and its members'
-- ids), kept as JSON text on the project: a list page not yet kept read it with three
-- subqueries and two aggregates per app, most of what reading a page cost the database. A BEFORE
-- trigger renders it on every insert and update of a project; changes to a project's apps and
-- members touch the project's row, which renders it again.
CREATE FUNCTION render_project_context() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.context_json := json_build_object('id', NEW.id, 'title', NEW.title,
    'apps', coalesce((SELECT json_agg(json_build_object('id', a.id, 'title', a.title, 'appType', a.app_type,
                                                        'environment', a.environment) ORDER BY a.id)
                      FROM applications a WHERE a.project_id = NEW.id), '[]'),
    'memberIds', coalesce((SELECT json_agg(m.user_id ORDER BY m.user_id)
                           FROM project_members m WHERE m.project_id = NEW.id), '[]'))::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Named to fire after any other BEFORE trigger (they fire in name order), on the final row.
CREATE TRIGGER zz_projects_context BEFORE INSERT OR UPDATE ON projects
  FOR EACH ROW EXECUTE FUNCTION render_project_context();
--> statement-breakpoint
-- Statement triggers, so a bulk insert or delete of apps or members renders each project once.
CREATE FUNCTION touch_projects_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET context_json = '' WHERE id IN (SELECT project_id FROM new_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION touch_projects_of_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET context_json = '' WHERE id IN (SELECT project_id FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update can move a row between projects: both render again. Row-level, with the columns the
-- context shows, so that the updates of counters and times an upload makes cost nothing here.
CREATE FUNCTION touch_projects_of_updated_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET context_json = '' WHERE id IN (OLD.project_id, NEW.project_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER applications_project_context_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION touch_projects_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER applications_project_context_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION touch_projects_of_old_rows();
--> statement-breakpoint
CREATE TRIGGER applications_project_context_update AFTER UPDATE OF project_id, title, app_type, environment
  ON applications FOR EACH ROW
  WHEN ((OLD.project_id, OLD.title, OLD.app_type, OLD.environment)
        IS DISTINCT FROM (NEW.project_id, NEW.title, NEW.app_type, NEW.environment))
  EXECUTE FUNCTION touch_projects_of_updated_row();
--> statement-breakpoint
CREATE TRIGGER project_members_project_context_insert AFTER INSERT ON project_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION touch_projects_of_new_rows();
--> statement-breakpoint
CREATE TRIGGER project_members_project_context_delete AFTER DELETE ON project_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION touch_projects_of_old_rows();
--> statement-breakpoint
CREATE TRIGGER project_members_project_context_update AFTER UPDATE OF project_id, user_id
  ON project_members FOR EACH ROW
  WHEN ((OLD.project_id, OLD.user_id) IS DISTINCT FROM (NEW.project_id, NEW.user_id))
  EXECUTE FUNCTION touch_projects_of_updated_row();
--> statement-breakpoint
-- Render the projects already there (the catalog versions move once, as for any update).
UPDATE projects SET context_json = '';
