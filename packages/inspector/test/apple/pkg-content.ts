import type { XarInput } from "./xar-writer.ts";

/** A product archive as productbuild lays it out: Distribution plus one folder per component. */
export const distribution = `<?xml version="1.0" encoding="utf-8"?>
<installer-gui-script minSpecVersion="2">
    <title>Tarmac Installer</title>
    <pkg-ref id="com.tarmac.fixture.pkg.app"/>
    <options customize="never" require-scripts="false"/>
    <volume-check>
        <allowed-os-versions>
            <os-version min="11.0"/>
        </allowed-os-versions>
    </volume-check>
    <choices-outline>
        <line choice="default">
            <line choice="com.tarmac.fixture.pkg.app"/>
        </line>
    </choices-outline>
    <choice id="default"/>
    <choice id="com.tarmac.fixture.pkg.app" visible="false">
        <pkg-ref id="com.tarmac.fixture.pkg.app"/>
    </choice>
    <pkg-ref id="com.tarmac.fixture.pkg.app" version="5.6.7" onConclusion="none">app.pkg</pkg-ref>
    <pkg-ref id="com.tarmac.fixture.pkg.helper" version="1.0" onConclusion="none">helper.pkg</pkg-ref>
    <product id="com.tarmac.fixture.pkg" version="5.6.7"/>
</installer-gui-script>
`;

export const appPackageInfo = `<?xml version="1.0" encoding="utf-8"?>
<pkg-info overwrite-permissions="true" relocatable="false" identifier="com.tarmac.fixture.pkg.app" postinstall-action="none" version="5.6.7" format-version="2" generator-version="InstallCmds-807 (21G72)" install-location="/Applications" auth="root">
    <payload numberOfFiles="3" installKBytes="12"/>
    <bundle-version/>
</pkg-info>
`;

export const helperPackageInfo = `<?xml version="1.0" encoding="utf-8"?>
<pkg-info identifier="com.tarmac.fixture.pkg.helper" version="1.0" format-version="2" install-location="/Library/Tarmac" auth="root"/>
`;

export const pkgFiles: XarInput[] = [
  { name: "Distribution", data: distribution },
  {
    name: "app.pkg",
    children: [
      { name: "PackageInfo", data: appPackageInfo },
      { name: "Bom", data: Buffer.from("BOMStore\0\0\0\0"), encoding: "raw" },
      { name: "Payload", data: Buffer.alloc(64, 0x1f), encoding: "raw" },
    ],
  },
  { name: "helper.pkg", children: [{ name: "PackageInfo", data: helperPackageInfo, encoding: "raw" }] },
];
