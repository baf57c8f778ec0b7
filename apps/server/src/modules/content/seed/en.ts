import { englishPages } from "./en-pages.ts";
import { inLanguage, redirect, type SeedContext, type SeedEntry } from "./seed-entry.ts";

export function englishSeed(context: SeedContext): SeedEntry[] {
  return [
    ...inLanguage("en", [
      {
        kind: "lp",
        slug: "main",
        title: "Ship every build to the people who test it",
        seoTitle: "Tarmac — self-hosted distribution for Android, iOS, Windows and macOS builds",
        metaDescription:
          "Upload APK, AAB, IPA, MSIX, MSI, DMG and PKG builds from a browser or CI and hand them to testers through install links that work on phones. Runs on your own server.",
        socialImage: "/media/social/tarmac-card.svg",
        body: `
Tarmac takes the builds your team produces — Android, iOS, Windows and macOS — and puts each one
in front of the right people within a minute: testers, colleagues, customers. Upload from the
browser or from CI, send an install link, and see who installed what.

## One place for every platform
Android \`.apk\` and \`.aab\`, iOS \`.ipa\`, Windows \`.msix\`, \`.msi\`, \`.appx\` and \`.zip\`,
macOS \`.dmg\`, \`.pkg\` and \`.zip\`. Tarmac reads the name, version, build number, icon and
minimum system from the file itself, so nobody types them in.

## Install links that work on phones
Each link opens a page that shows the visitor's own platform first: an iPhone gets the
over-the-air install, an Android phone the APK, a laptop the installer. Links can need a
password or an account, expire, or stop after a number of installs.

## Uploads from CI
The \`tarmac\` command, a GitHub Action and plain \`curl\` upload from any pipeline. Large builds
stream straight to storage and resume where a dropped connection left them.

## Feedback and update prompts
Apps built with the Updraft SDK for Android or iOS tell testers about newer builds and send
shake-to-report feedback with a screenshot to the app's inbox.

## Moving from Updraft
Change the host name and keep the rest: upload URLs, the fastlane action, the Gradle plugin and
the API keys work as they did.

## Your server, your data
Tarmac is self-hosted: \`npm install && npm start\` runs it with an embedded database, and the
same code runs on PostgreSQL and S3, Google Cloud or Azure storage when you grow. Single sign-on
(Okta, Google, Entra ID, OIDC), your own mail server and your own bucket per organization.

## Pricing
${context.pricing("en")}

Every plan has every feature; plans differ only in their limits. See [Pricing](/pricing).
`,
      },
      {
        kind: "main-menu",
        slug: "main",
        title: "Main menu",
        body: `
- [Features](/promo)
- [Pricing](/pricing)
- [Blog](/blog)
- [FAQ](/faq)
- [About](/about)
`,
      },
      {
        kind: "mobile-menu",
        slug: "main",
        title: "Mobile menu",
        body: `
- [Features](/promo)
- [Pricing](/pricing)
- [Blog](/blog)
- [FAQ](/faq)
- [What's new](/whats-new)
- [Sign up](/signup)
`,
      },
      {
        kind: "footer-menu",
        slug: "main",
        title: "Footer menu",
        body: `
- [About](/about)
- [SDK](/sdk)
- [What's new](/whats-new)
- [Moving from Updraft](/moving-from-updraft)
- [Privacy](/privacy)
- [Terms](/terms)
- [Imprint](/imprint)
`,
      },
      {
        kind: "footer",
        slug: "main",
        title: "Footer",
        body: "Tarmac distributes app builds for Android, iOS, Windows and macOS. This instance runs on its operator's own server.",
      },
      {
        kind: "reg",
        slug: "main",
        title: "Create your Tarmac account",
        body: `
With an account you can create an organization, upload builds and invite your team and testers.

- Uploads from the browser and from CI
- Install links for phones and computers
- Feedback and update prompts through the Updraft SDK

We send a link to confirm your e-mail address. By signing up you accept the [terms](/terms) and
the [privacy notice](/privacy).
`,
      },
      {
        kind: "faq",
        slug: "main",
        title: "Frequently asked questions",
        body: `
## Which files can I upload?
Android \`.apk\` and \`.aab\`; iOS \`.ipa\`; Windows \`.msix\`, \`.msixbundle\`, \`.msixupload\`,
\`.msi\`, \`.appx\`, \`.appxbundle\`, \`.appxupload\` and \`.zip\`; macOS \`.dmg\`, \`.pkg\` and \`.zip\`.

## Can testers install iOS builds over the air?
Yes, when the server is reached over HTTPS and the build is signed for their device (ad hoc or
enterprise). The [device identifier page](/get-my-udid) collects a device's UDID for your
provisioning profile.

## How large may a build be?
Up to 8 GiB per upload unless the operator sets another limit; your plan's storage applies too.
Uploads stream to storage and can be resumed.

## Where are my files stored?
Where the operator of this instance decided: its own disk, S3-compatible storage, Google Cloud
Storage or Azure Blob Storage. An organization can also connect its own bucket.

## Does Tarmac work with the Updraft SDK and tools?
Yes. The Android and iOS SDKs, the fastlane action, the Gradle plugin and the Bitrise step work
after changing the host name. See [Moving from Updraft](/moving-from-updraft).

## Can I sign in with my company account?
Organizations can set up single sign-on with Okta, Google Workspace, Microsoft Entra ID, any
SAML identity provider or OpenID Connect.

## How do I get my data out?
Your profile page exports your personal data, and builds can always be downloaded. Deleting an
organization removes its builds and records.
`,
      },
      {
        kind: "page-sdk",
        slug: "main",
        title: "Feedback and updates from inside your app",
        metaDescription:
          "Use the open-source Updraft SDKs for Android and iOS with Tarmac: update prompts and shake-to-report feedback.",
        body: `
Tarmac speaks the protocol of the open-source Updraft SDKs. An app that includes them asks
Tarmac whether a newer build exists and offers it to the tester, and sends feedback — a
screenshot the tester can draw on, a description and the device — to the app's inbox.

## Android
Add \`com.appswithlove.updraft\` and start it with your keys and this server's address:

\`\`\`kotlin
Updraft.start(UpdraftSettings(appKey = "<app key>", sdkKey = "<SDK key>", baseUrl = "${context.publicUrl}/api/"))
\`\`\`

## iOS
\`\`\`swift
Updraft.shared.baseUrl = "${context.publicUrl}"
Updraft.shared.start(sdkKey: "<SDK key>", appKey: "<app key>")
\`\`\`

## Where the keys are
The app key is on the app's page; the SDK key is in the organization's settings. On the app's
**Feedback** tab an administrator turns feedback and update prompts on or off.
`,
      },
      {
        kind: "dashboard-setting",
        slug: "welcome",
        title: "Welcome to Tarmac",
        body: `
Upload your first build with **Add app**: drop an \`.apk\`, \`.ipa\`, \`.msix\`, \`.dmg\` or any other
supported file. Then open the app's **Distribution** tab to create an install link, and invite
your team under **Organization → Staff**.
`,
      },
      {
        kind: "dashboard-setting",
        slug: "announcement-public-site",
        title: "The public site is editable",
        publishedAt: "2026-11-28T12:00:00Z",
        body: "Instance administrators can now edit the landing page, menus, pages, FAQ and blog in three languages under **Administration → Site content**.",
      },
      ...whatsNew,
    ]),
    ...englishPages(context),
    redirect("/about-us", "/about"),
    redirect("/impressum", "/imprint"),
    redirect("/datenschutz", "/privacy"),
    redirect("/agb", "/terms"),
    redirect("/docs/sdk", "/sdk"),
    redirect("/updraft", "/moving-from-updraft"),
    redirect("/changelog", "/whats-new"),
  ];
}

const whatsNew: Omit<SeedEntry, "language">[] = [
  {
    kind: "whats-new",
    slug: "2026-11-28-site",
    title: "A public site in three languages",
    publishedAt: "2026-11-28T12:00:00Z",
    body: "Landing page, pricing, blog with RSS and Atom feeds, FAQ and pages, edited by instance administrators in English, German and Russian. Shared links show a preview.",
  },
  {
    kind: "whats-new",
    slug: "2026-11-27-resumable",
    title: "Resumable uploads",
    publishedAt: "2026-11-27T12:00:00Z",
    body: "Large builds upload through the tus protocol: a dropped connection resumes where it stopped instead of starting over. The `tarmac` command uses it on its own.",
  },
  {
    kind: "whats-new",
    slug: "2026-11-25-feedback",
    title: "Feedback, update prompts and webhooks",
    publishedAt: "2026-11-25T12:00:00Z",
    body: "Apps with the Updraft SDK send feedback with screenshots to the app's inbox and prompt testers to update. Signed webhooks and Slack, Teams and Discord messages tell your tools about new builds.",
  },
  {
    kind: "whats-new",
    slug: "2026-11-21-install-pages",
    title: "Install links and install pages",
    publishedAt: "2026-11-21T12:00:00Z",
    body: "Install links with passwords, expiry and install limits; a phone-first install page with over-the-air installs for iOS; UDID collection for provisioning profiles.",
  },
];
