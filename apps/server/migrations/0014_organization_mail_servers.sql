CREATE TABLE "organization_mail_servers" (
	"organization_id" bigint PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"security" text NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"sealed_password" text,
	"from_name" text DEFAULT '' NOT NULL,
	"from_email" text NOT NULL,
	"reply_to" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_mail_servers" ADD CONSTRAINT "organization_mail_servers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;