import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { DistributionServices } from "../distribution/distribution.module.ts";
import type { PlanServices } from "../plan/plan.module.ts";
import type { DescribePage } from "../web-host/page-head.ts";
import { registerContentRoutes } from "./content.routes.ts";
import { ContentService } from "./content.service.ts";
import { registerContentAdminRoutes } from "./content-admin.routes.ts";
import { ContentAdminService } from "./content-admin.service.ts";
import { PageMetaService } from "./content-meta.service.ts";
import { ContentSeeder } from "./content-seeder.ts";

/** The public site: landing, menus, pages, FAQ, what's new, redirects, the blog and its editor. */
export function createContentModule(
  platform: Platform,
  deps: PlanServices & Pick<DistributionServices, "getapp">,
) {
  const { db } = platform.database;
  const publicUrl = platform.config.PUBLIC_URL;
  const seeder = new ContentSeeder({
    db,
    listTariffs: () => deps.plans.listTariffs(),
    adminEmail: platform.config.ADMIN_EMAILS[0] ?? null,
    publicUrl,
  });
  const content = new ContentService({ db, seeder });
  const editor = new ContentAdminService({ db, seeder });
  const pageMeta = new PageMetaService({
    content,
    publicUrl,
    installPreview: (key) => deps.getapp.previewPage(key),
  });
  // Public pages get their title and link-preview tags in the served HTML (the web host asks).
  const describePage: DescribePage = (path, hints) => pageMeta.headOf(path, hints);
  return {
    services: { content, describePage },
    routes: async (app) => {
      // The site is written on the first start of a web process, before the first visitor.
      await seeder.ensureSeeded();
      registerContentRoutes(app, { content, publicUrl });
      registerContentAdminRoutes(app, { editor, publicUrl });
    },
  } satisfies AppModule;
}

export type ContentServices = ReturnType<typeof createContentModule>["services"];
