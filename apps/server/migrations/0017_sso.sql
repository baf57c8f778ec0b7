CREATE TABLE "sso_connections" (
	"organization_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"default_role" smallint DEFAULT 3 NOT NULL,
	"allowed_domains" text[] DEFAULT '{}' NOT NULL,
	"settings" jsonb NOT NULL,
	"secret_sealed" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_connections_organization_id_kind_pk" PRIMARY KEY("organization_id","kind")
);
--> statement-breakpoint
CREATE TABLE "sso_login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"organization_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"next_path" text DEFAULT '/dashboard' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_policies" (
	"organization_id" bigint PRIMARY KEY NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_login_states" ADD CONSTRAINT "sso_login_states_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_policies" ADD CONSTRAINT "sso_policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_login_states_expires_idx" ON "sso_login_states" USING btree ("expires_at");