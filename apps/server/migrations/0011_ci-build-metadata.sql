ALTER TABLE "versions" ADD COLUMN "git_url" text;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "build_type" text;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "custom_bundle_version" text;