import { inLanguage, type SeedContext, type SeedEntry } from "./seed-entry.ts";

/** The operator's address for the legal pages, or where to find it when none is configured. */
function contactLine(context: SeedContext): string {
  return context.adminEmail
    ? `[${context.adminEmail}](mailto:${context.adminEmail})`
    : "the address the operator of this instance publishes";
}

export function englishPages(context: SeedContext): SeedEntry[] {
  const contact = contactLine(context);
  return inLanguage("en", [
    {
      kind: "page",
      slug: "about",
      title: "About Tarmac",
      metaDescription:
        "Tarmac is a self-hosted service that distributes Android, iOS, Windows and macOS builds to teams and testers.",
      body: `
Tarmac distributes app builds. Organizations upload Android, iOS, Windows and macOS builds from
a browser or from CI and hand them to their teams, testers and users through install links. It
does what App Center's distribution did, on a server you control.

## What it does
- **Uploads** from the browser, the \`tarmac\` command, a GitHub Action or \`curl\`, streamed and
  resumable, with the build's metadata read from the file.
- **Distribution** through install links, tester groups and mails, with install counts.
- **Feedback and updates** through the Updraft SDK protocol.
- **Organizations** with roles (owner, admin, team manager, mobile user, tester), teams,
  projects, single sign-on, their own mail server and their own storage.
- **Integrations**: signed webhooks, Slack, Teams and Discord messages.

## How it runs
One Node.js process with an embedded database is enough to start (\`npm install && npm start\`).
For more load the same code runs as several processes on PostgreSQL with S3-compatible, Google
Cloud or Azure storage. Everything it needs is in its own repository; nothing phones home.
`,
    },
    {
      kind: "page",
      slug: "privacy",
      title: "Privacy notice",
      metaDescription:
        "What this Tarmac instance stores about you, why, and how to get it or have it deleted.",
      body: `
This Tarmac instance is run by its operator on their own infrastructure. The operator is the
controller of your data; you reach them at ${contact}.

## What is stored
- **Your account**: e-mail address, name, a password hash (Argon2id; the password itself is never
  stored), two-factor settings and the sessions and API keys you create (stored as hashes).
- **Organizations you belong to**: your role, teams and projects.
- **Builds and their metadata** uploaded by you or your organization, and the install links made
  for them.
- **Installs**: when a build was installed through a link, with the device's platform and the
  device identifier if you chose to share it on the device identifier page.
- **Feedback** sent from apps: the screenshot, text, device model and system version.
- **Mail** sent to you (activation, invitations, password resets), kept in the outbox only when
  the instance has no mail server.
- **Server logs** with IP addresses and request paths, kept for operating and securing the service.

## Cookies and local storage
A session cookie keeps you signed in for 14 days; an \`XSRF-TOKEN\` cookie protects forms against
cross-site requests. Your language choice and the last organization and app you opened are kept
in your browser's local storage. If the operator has configured Google Tag Manager, page views
are sent to it; otherwise nothing is loaded from third parties.

## Who else receives data
Only the services the operator or your organization configured: a mail server, cloud storage, a
single sign-on provider, the payment provider Stripe (card details go to Stripe directly and
never reach this server) and the webhooks or chat channels your organization set up.

## Your rights
Your profile page exports everything stored about you as a file. You can correct your name and
address there, and delete your account. For anything else write to ${contact}.
`,
    },
    {
      kind: "page",
      slug: "terms",
      title: "Terms of use",
      metaDescription: "The terms for using this Tarmac instance.",
      body: `
These terms apply to this Tarmac instance, operated by its operator (see the [imprint](/imprint)).

## The service
Tarmac stores the builds you upload and hands them to the people you choose. The operator runs
it on their own infrastructure and may change, limit or end it; plans and their limits are shown
on the [pricing page](/pricing).

## Your content
You keep every right to the builds, texts and screenshots you upload. You grant the operator only
what is needed to store them and deliver them to the people you share them with. Upload only
software you may distribute, and nothing that harms the devices of those who install it.

## Accounts
Keep your password and API keys to yourself; actions taken with them count as yours. An
organization's owner decides who belongs to it and what they may do.

## Paid plans
Where billing is enabled, paid plans renew monthly and can be cancelled for the end of the
period; payments are processed by Stripe.

## Liability
The service is provided as it is. Keep your own copies of your builds. The operator is liable
without limit for intent and gross negligence and otherwise as mandatory law requires.

Questions: ${contact}.
`,
    },
    {
      kind: "page",
      slug: "imprint",
      title: "Imprint",
      metaDescription: "Who operates this Tarmac instance.",
      body: `
This Tarmac instance is self-hosted: it is operated by the organization that installed it, not by
the authors of the Tarmac software.

## Operator
Contact: ${contact}

Address: ${context.publicUrl}

Operators in countries that require a full imprint (in Germany § 5 DDG) add their name, postal
address and register entry here under **Administration → Site content**.
`,
    },
    {
      kind: "page",
      slug: "moving-from-updraft",
      title: "Moving from Updraft",
      metaDescription:
        "Updraft's upload URLs, fastlane action, Gradle plugin, Bitrise step and SDKs work with Tarmac after changing the host name.",
      body: `
Tarmac answers Updraft's API, so moving is a matter of changing the host name.

## What keeps working
- CI upload URLs: \`/api/app_upload/{app key}/{API key}/\`, with \`success\` and \`public_link\` in
  the answer as the Gradle plugin expects.
- Updraft's fastlane action, Gradle plugin and Bitrise step, and the documented \`curl\` commands.
- Sign-in with \`{username, password, token}\` and the \`Authorization: Token …\` header.
- Distribution groups and the two-step build exchange.
- The Android and iOS SDKs for update prompts and feedback (see [SDK](/sdk)).

## What to do
1. Create your organization and apps, or upload the newest build of each app once.
2. Take each app's key from its page and your API key from your profile.
3. Replace the host name in your CI settings and SDK start-up code with \`${context.publicUrl}\`.
`,
    },
  ]);
}
