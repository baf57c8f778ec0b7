ALTER TABLE "applications" ADD COLUMN "project_search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
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
--> statement-breakpoint
-- Each app also keeps its project's folded title, which the apps list's search matches: loading
-- an organization's list (once per catalog version and process) looked it up for every app, two
-- thirds of that load's time. It is copied when an app is written with its project, and spread
-- to the project's apps when the project is renamed.
CREATE FUNCTION copy_project_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.project_search_text := coalesce((SELECT search_text FROM projects WHERE id = NEW.project_id), '');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER applications_project_search_text BEFORE INSERT OR UPDATE OF project_id, project_search_text
  ON applications FOR EACH ROW EXECUTE FUNCTION copy_project_search_text();
--> statement-breakpoint
CREATE FUNCTION spread_project_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET project_search_text = NEW.search_text WHERE project_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_search_text_to_apps AFTER UPDATE OF title ON projects FOR EACH ROW
  WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION spread_project_search_text();
--> statement-breakpoint
UPDATE applications SET project_search_text = '';
--> statement-breakpoint
-- The lists' indexes carry it, so loading a list reads the index alone.
DROP INDEX "applications_org_updated_idx";--> statement-breakpoint
CREATE INDEX "applications_org_updated_idx" ON "applications" USING btree ("organization_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("project_id", "search_text", "project_search_text");--> statement-breakpoint
DROP INDEX "applications_org_current_idx";--> statement-breakpoint
CREATE INDEX "applications_org_current_idx" ON "applications" USING btree ("organization_id","current_version_id" DESC NULLS LAST) INCLUDE ("project_id", "search_text", "project_search_text");
