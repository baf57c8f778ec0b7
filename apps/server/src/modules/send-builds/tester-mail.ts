/** The "new build to test" e-mail, in English. */
import type { MailBlock, MailContent } from "../../platform/mail/mail-content.ts";

export interface OfferedBuild {
  platform: string;
  appTitle: string;
  version: string;
  buildNumber: string;
  url: string;
}

export interface TesterMailInput {
  /** The mail is sent in the organization's name. */
  organization: { id: number; name: string };
  appTitle: string;
  /** Who sent it; null for a system notice sent in the organization's name. */
  senderName: string | null;
  builds: OfferedBuild[];
  whatsNew: string;
  showTutorial: boolean;
  inStore: boolean;
}

const platformNames: Record<string, string> = {
  android: "Android",
  ios: "iOS",
  windows: "Windows",
  macos: "macOS",
};

const tutorials: Record<string, string> = {
  android:
    "Android: open the link on your phone, download the APK and open it. If asked, allow installing apps from this source.",
  ios: "iOS: open the link in Safari on your iPhone or iPad and tap Install. Your device must be registered for this build; when it is done, the app appears on your home screen.",
  windows: "Windows: open the link on your PC, download the installer and run it.",
  macos: "macOS: open the link on your Mac, download the file, open it and move the app to Applications.",
};

function versionText(build: OfferedBuild): string {
  return build.buildNumber && build.buildNumber !== build.version
    ? `${build.version} (${build.buildNumber})`
    : build.version;
}

export function composeTesterMail(input: TesterMailInput): MailContent {
  const versions = input.builds.map((b) => versionText(b));
  const subject = `${input.appTitle} ${[...new Set(versions)].join(", ")} is ready to test`.slice(0, 300);
  const organizationTitle = input.organization.name;
  const intro = input.senderName
    ? `${input.senderName} of ${organizationTitle} invites you to test a new build of ${input.appTitle}.`
    : `${organizationTitle} has a new build of ${input.appTitle} for you to test.`;
  const tutorial = input.showTutorial
    ? [...new Set(input.builds.map((b) => b.platform))]
        .map((p) => tutorials[p])
        .filter((t): t is string => !!t)
    : [];
  const blocks: MailBlock[] = [
    intro,
    ...input.builds.map((b) => ({
      button: `Install ${b.appTitle} ${versionText(b)} for ${platformNames[b.platform] ?? b.platform}`,
      url: b.url,
    })),
  ];
  if (input.whatsNew) blocks.push({ heading: "What's new", text: input.whatsNew });
  if (tutorial.length > 0) blocks.push({ heading: "How to install", items: tutorial });
  if (input.inStore) {
    blocks.push("This build is also published to the store, where it can be installed the usual way.");
  }
  return {
    subject,
    organization: input.organization,
    title: `A new build of ${input.appTitle} to test`,
    blocks,
    smallPrint: "If you did not expect this message, ignore it.",
  };
}
