/** The "new build to test" e-mail, in English, as plain text plus simple HTML. */
import { escapeHtml } from "../../platform/mail/escape-html.ts";
import type { MailContent } from "../auth/account-mail.ts";

export interface OfferedBuild {
  platform: string;
  appTitle: string;
  version: string;
  buildNumber: string;
  url: string;
}

export interface TesterMailInput {
  organizationTitle: string;
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
  const intro = input.senderName
    ? `${input.senderName} of ${input.organizationTitle} invites you to test a new build of ${input.appTitle}.`
    : `${input.organizationTitle} has a new build of ${input.appTitle} for you to test.`;
  const lines = input.builds.map(
    (b) => `${platformNames[b.platform] ?? b.platform}: ${b.appTitle} ${versionText(b)}`,
  );
  const tutorial = input.showTutorial
    ? [...new Set(input.builds.map((b) => b.platform))]
        .map((p) => tutorials[p])
        .filter((t): t is string => !!t)
    : [];
  const store = input.inStore
    ? "This build is also published to the store, where it can be installed the usual way."
    : "";

  const text = [
    intro,
    lines.map((line, i) => `${line}\n${input.builds[i]?.url}`).join("\n\n"),
    input.whatsNew ? `What's new:\n${input.whatsNew}` : "",
    tutorial.length > 0 ? `How to install:\n${tutorial.map((t) => `- ${t}`).join("\n")}` : "",
    store,
    "If you did not expect this message, ignore it.",
  ].filter(Boolean);

  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${input.builds
      .map(
        (b, i) =>
          `<li>${escapeHtml(lines[i] ?? "")}: <a href="${escapeHtml(b.url)}">Install ${escapeHtml(versionText(b))}</a></li>`,
      )
      .join("")}</ul>`,
    input.whatsNew
      ? `<p><strong>What's new</strong></p><p>${escapeHtml(input.whatsNew).replaceAll("\n", "<br>")}</p>`
      : "",
    tutorial.length > 0
      ? `<p><strong>How to install</strong></p><ul>${tutorial.map((t) => `<li>${escapeHtml(t)}</li>`).join("")}</ul>`
      : "",
    store ? `<p>${escapeHtml(store)}</p>` : "",
    "<p>If you did not expect this message, ignore it.</p>",
  ].filter(Boolean);

  return {
    subject,
    text: `${text.join("\n\n")}\n\n— ${input.organizationTitle} via Tarmac\n`,
    html: `<!doctype html><html><body>${html.join("")}<p>— ${escapeHtml(input.organizationTitle)} via Tarmac</p></body></html>`,
  };
}
