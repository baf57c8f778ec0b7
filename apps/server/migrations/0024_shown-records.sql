-- Each app and build keeps its own fields as JSON text, exactly as its API record shows them,
-- rendered by a BEFORE trigger on every insert and update: a list page reads one text value per
-- row instead of some thirty typed ones. What a record takes from other rows (the app's title on
-- a build, the uploader, the project) or from the moment (signed links) is added by the server.
ALTER TABLE "applications" ADD COLUMN "record_json" text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "record_json" text DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- A timestamp as JavaScript's toISOString writes it (UTC, milliseconds, both truncate).
CREATE FUNCTION api_timestamp(moment timestamptz) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(moment AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;--> statement-breakpoint
-- A value as JSON text: strings quoted and escaped, SQL NULL as null. The records below are
-- written as compact JSON (no spaces between fields), as JSON.stringify writes it.
CREATE FUNCTION json_text(item anyelement) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(to_json(item)::text, 'null')
$$;--> statement-breakpoint
CREATE FUNCTION render_application_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.record_json := '{"id":' || NEW.id
    || ',"title":' || json_text(NEW.title)
    || ',"app_type":' || NEW.app_type
    || ',"project_app":' || NEW.project_id
    || ',"environment":' || json_text(NEW.environment)
    || ',"slack_channel":' || json_text(NEW.slack_channel)
    || ',"description":' || json_text(NEW.description)
    || ',"organization":' || NEW.organization_id
    || ',"distribution":[],"team_detail":[]'
    || ',"count_versions":' || NEW.versions_count
    || ',"upload_path":' || json_text('/api/app_upload/' || NEW.app_key || '/')
    || ',"ready_to_sale":' || NEW.ready_to_sale
    || ',"feedback_enabled":' || NEW.feedback_enabled
    || ',"autoupdate_enabled":' || NEW.autoupdate_enabled
    || ',"app_key":' || json_text(NEW.app_key)
    || ',"unique_app_id":' || json_text(NEW.bundle_id)
    || ',"created_at":' || json_text(api_timestamp(NEW.created_at))
    || ',"updated_at":' || json_text(api_timestamp(NEW.updated_at))
    || '}';
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION render_version_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.record_json := '{"id":' || NEW.id
    || ',"app":' || NEW.application_id
    || ',"version":' || json_text(NEW.version)
    || ',"build_version_number":' || json_text(NEW.build_number)
    || ',"date":' || json_text(api_timestamp(NEW.created_at))
    || ',"state":' || json_text(CASE WHEN NEW.state IN ('processing', 'ready', 'failed') THEN NEW.state ELSE 'failed' END)
    || ',"file_name":' || json_text(NEW.file_name)
    || ',"file_size":' || NEW.file_size
    || ',"sha256":' || json_text(NEW.sha256)
    || ',"content_type":' || json_text(NEW.content_type)
    || ',"bundle_id":' || json_text(NEW.bundle_id)
    || ',"min_os_version":' || json_text(NEW.min_os_version)
    || ',"whats_new":' || json_text(NEW.whats_new)
    || ',"comment":' || json_text(NEW.comment)
    || ',"ready_to_sale":' || NEW.ready_to_sale
    || ',"git_branch":' || json_text(NEW.git_branch)
    || ',"git_tag":' || json_text(NEW.git_tag)
    || ',"git_commit":' || json_text(NEW.git_commit)
    || ',"git_url":' || json_text(NEW.git_url)
    || ',"build_type":' || json_text(NEW.build_type)
    || ',"custom_bundle_version":' || json_text(NEW.custom_bundle_version)
    || ',"download_count":' || NEW.download_count
    || ',"install_count":' || NEW.install_count
    || ',"has_universal_apk":' || (coalesce(NEW.universal_apk_key, '') <> '')
    || ',"metadata":' || coalesce(NEW.build_info, '{}'::jsonb)::text
    || '}';
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Named to fire after any other BEFORE trigger (they fire in name order), on the final row.
CREATE TRIGGER zz_applications_record BEFORE INSERT OR UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION render_application_record();--> statement-breakpoint
CREATE TRIGGER zz_versions_record BEFORE INSERT OR UPDATE ON versions
  FOR EACH ROW EXECUTE FUNCTION render_version_record();--> statement-breakpoint
-- Render the rows already there (the catalog versions move once, as for any update).
UPDATE applications SET record_json = '';--> statement-breakpoint
UPDATE versions SET record_json = '';
