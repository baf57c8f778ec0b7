CREATE TABLE "sso_saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_used_assertions" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sso_saml_requests_created_idx" ON "sso_saml_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sso_used_assertions_expires_idx" ON "sso_used_assertions" USING btree ("expires_at");