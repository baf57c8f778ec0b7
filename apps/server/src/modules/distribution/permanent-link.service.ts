import { appTypeWords } from "@tarmac/contracts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { DistributionService } from "./distribution.service.ts";
import { renderPermanentLinkPdf } from "./lib/permanent-link-pdf.ts";

const platformLabels: Record<(typeof appTypeWords)[number], string> = {
  android: "Android",
  ios: "iOS",
  windows: "Windows",
  macos: "macOS",
};
// Icons are a few KB; anything far larger is not an icon worth printing.
const maxIconBytes = 2 * 1024 * 1024;

/** The printable sheet with an app's permanent install link. */
export class PermanentLinkService {
  constructor(
    private readonly deps: {
      storage: StorageDriver;
      distributions: DistributionService;
      releases: ReleaseService;
      organizations: Pick<OrganizationService, "getTitle">;
    },
  ) {}

  async render(userId: number, appId: number): Promise<{ pdf: Buffer; fileName: string }> {
    const { app, url } = await this.deps.distributions.permanentLink(userId, appId);
    const organization = await this.deps.organizations.getTitle(app.organizationId);
    const current = app.currentVersionId
      ? await this.deps.releases.findVersionWithApp(app.organizationId, app.currentVersionId)
      : null;
    const iconKey = current
      ? (current.version.iconKey ?? (await this.deps.releases.appIconKey(app.organizationId, app.id)))
      : null;
    const iconPng = iconKey ? await this.readIcon(iconKey) : null;
    const word = appTypeWords[app.appType] ?? "android";
    const pdf = await renderPermanentLinkPdf({
      appName: app.title,
      platformLabel: `${platformLabels[word]} - ${app.environment}`,
      iconPng,
      link: url,
      organization,
    });
    const safeName = app.title.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "app";
    return { pdf, fileName: `${safeName}-install-link.pdf` };
  }

  private async readIcon(key: string): Promise<Buffer | null> {
    try {
      const info = await this.deps.storage.stat(key);
      if (!info || info.size > maxIconBytes) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of await this.deps.storage.read(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch {
      // The sheet is still useful without the icon.
      return null;
    }
  }
}
