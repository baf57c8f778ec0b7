-- Stored, folded search texts (made by the functions of 0020), with trigram indexes where the
-- database searches (people, teams); the sort indexes of the install list, the platform filter
-- and the staff list.
ALTER TABLE "applications" ADD COLUMN "search_text" text GENERATED ALWAYS AS (public.search_fold(coalesce(title, '') || ' ' || coalesce(bundle_id, ''))) STORED;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "search_text" text GENERATED ALWAYS AS (public.search_fold(coalesce(title, ''))) STORED;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "search_text" text GENERATED ALWAYS AS (public.search_fold(coalesce(title, ''))) STORED;--> statement-breakpoint
ALTER TABLE "testers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (public.person_search_text(first_name, last_name, email)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (public.person_search_text(first_name, last_name, email)) STORED;--> statement-breakpoint
CREATE INDEX "applications_org_type_updated_idx" ON "applications" USING btree ("organization_id","app_type","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_org_current_idx" ON "applications" USING btree ("organization_id","current_version_id" DESC NULLS LAST) INCLUDE ("project_id", "search_text");--> statement-breakpoint
CREATE INDEX "memberships_org_role_idx" ON "memberships" USING btree ("organization_id","role","user_id");--> statement-breakpoint
CREATE INDEX "teams_search_idx" ON "teams" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The apps list reads every app of the organization in this order once per catalog version
-- (ids and search texts, then pages are slices): carrying the project and the search text in
-- the index lets that read come from the index alone (the install list's index above too).
DROP INDEX "applications_org_updated_idx";--> statement-breakpoint
CREATE INDEX "applications_org_updated_idx" ON "applications" USING btree ("organization_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("project_id", "search_text");
