CREATE TABLE "permission_group_members" (
	"group_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "permission_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "permission_group_projects" (
	"group_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	CONSTRAINT "permission_group_projects_group_id_project_id_pk" PRIMARY KEY("group_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "permission_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "permission_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "permission_group_members" ADD CONSTRAINT "permission_group_members_group_id_permission_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."permission_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_group_members" ADD CONSTRAINT "permission_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_group_projects" ADD CONSTRAINT "permission_group_projects_group_id_permission_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."permission_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_group_projects" ADD CONSTRAINT "permission_group_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_groups" ADD CONSTRAINT "permission_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "permission_group_members_user_idx" ON "permission_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "permission_group_projects_project_idx" ON "permission_group_projects" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "permission_groups_org_title_key" ON "permission_groups" USING btree ("organization_id","title");--> statement-breakpoint
-- Group members and grants decide which apps members see, like project members: cached list
-- pages must not outlive a change of them (the catalog version of 0008).
CREATE FUNCTION bump_catalog_version_of_permission_group_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT g.organization_id FROM permission_groups g JOIN old_rows r ON r.group_id = g.id;
  ELSE
    INSERT INTO catalog_bumps (organization_id)
    SELECT DISTINCT g.organization_id FROM permission_groups g JOIN new_rows r ON r.group_id = g.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER permission_group_members_catalog_version_insert AFTER INSERT ON permission_group_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_permission_group_rows();
--> statement-breakpoint
CREATE TRIGGER permission_group_members_catalog_version_delete AFTER DELETE ON permission_group_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_permission_group_rows();
--> statement-breakpoint
CREATE TRIGGER permission_group_projects_catalog_version_insert AFTER INSERT ON permission_group_projects
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_permission_group_rows();
--> statement-breakpoint
CREATE TRIGGER permission_group_projects_catalog_version_delete AFTER DELETE ON permission_group_projects
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_permission_group_rows();
--> statement-breakpoint
-- A deleted group takes its grants with it (their rows go by cascade, after the group row).
CREATE TRIGGER permission_groups_catalog_version_delete AFTER DELETE ON permission_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_of_old_rows();
