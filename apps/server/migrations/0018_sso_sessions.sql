ALTER TABLE "auth_tokens" ADD COLUMN "sso_organization_id" bigint;--> statement-breakpoint
CREATE INDEX "auth_tokens_sso_org_idx" ON "auth_tokens" USING btree ("sso_organization_id");