import { guardCorrupt, maxPlistBytes } from "../apple/bundle.ts";
import { type PackageInfo, readDistribution, readPackageInfo } from "../apple/distribution.ts";
import { openXar } from "../apple/xar.ts";
import { summarizeCertificate } from "../cert/x509.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import type { BuildInfo, CertificateInfo } from "../types.ts";

/**
 * macOS installer packages. A product archive carries a Distribution (title, product id and
 * version, pkg-refs) and one folder per component with its PackageInfo; a component package
 * has its PackageInfo at the top.
 */

const maxPackages = 256;

function summarizeAll(certificates: Buffer[]): CertificateInfo[] {
  const out: CertificateInfo[] = [];
  for (const der of certificates) {
    try {
      out.push(summarizeCertificate(der));
    } catch (error) {
      if (!(error instanceof InspectError)) throw error;
    }
  }
  return out;
}

export const inspectPkg: FormatReader = (source, _options, fileType) =>
  guardCorrupt(async (): Promise<BuildInfo> => {
    const xar = await openXar(source);
    const distributionFile = xar.files.find((file) => file.path === "Distribution");
    const distribution = distributionFile
      ? readDistribution(await xar.read(distributionFile, maxPlistBytes))
      : null;
    const packages: PackageInfo[] = [];
    for (const file of xar.files) {
      if (file.path !== "PackageInfo" && !/^[^/]+\/PackageInfo$/.test(file.path)) continue;
      if (packages.length >= maxPackages) throw new InspectError("limit_exceeded", "too many packages");
      packages.push(readPackageInfo(await xar.read(file, maxPlistBytes)));
    }
    for (const ref of distribution?.pkgRefs ?? []) {
      if (packages.length >= maxPackages) break;
      if (!packages.some((pkg) => pkg.identifier === ref.identifier)) {
        packages.push({ identifier: ref.identifier, version: ref.version, install_location: null });
      }
    }
    if (!distribution && packages.length === 0) {
      throw new InspectError("missing_manifest", "the package has neither a Distribution nor a PackageInfo");
    }
    const first = packages[0];
    const version = distribution?.productVersion ?? first?.version ?? null;
    const signature = xar.signature;
    return {
      app_type: 3,
      file_type: fileType,
      bundle_id: distribution?.productId ?? first?.identifier ?? null,
      name: distribution?.title ?? null,
      version,
      build_number: version,
      min_os_version: distribution?.minOsVersion ?? null,
      icon: null,
      signing: {
        schemes: signature ? ["xar"] : [],
        signed: signature?.valid ?? false,
        certificates: summarizeAll(signature?.certificates ?? []),
      },
      packages,
    };
  });
