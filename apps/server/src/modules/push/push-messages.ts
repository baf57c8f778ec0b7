import type { PushMessage } from "@tarmac/contracts";

export type Language = "en" | "de" | "ru";

/** The facts a message is written from; the wording is chosen per subscription's language. */
export type MessageFacts =
  | { kind: "build"; app: string; version: string; buildNumber: string; url: string; appId: number }
  | { kind: "feedback"; app: string; tag: string; description: string; url: string; reportId: number }
  | { kind: "store_upload"; app: string; store: string; version: string; url: string; appId: number }
  | { kind: "test" };

type Texts = {
  build: (f: Extract<MessageFacts, { kind: "build" }>) => [string, string];
  feedback: (f: Extract<MessageFacts, { kind: "feedback" }>) => [string, string];
  storeUpload: (f: Extract<MessageFacts, { kind: "store_upload" }>) => [string, string];
  test: [string, string];
  noDescription: string;
};

const texts: Record<Language, Texts> = {
  en: {
    build: (f) => [`${f.app} ${versionLabel(f)}`, "A new build is ready to install."],
    feedback: (f) => [`${f.app}: new ${f.tag} report`, f.description],
    storeUpload: (f) => [`${f.app}: sent to ${f.store}`, `Build ${f.version} was uploaded to ${f.store}.`],
    test: ["Tarmac", "Notifications work on this device."],
    noDescription: "(no description)",
  },
  de: {
    build: (f) => [`${f.app} ${versionLabel(f)}`, "Ein neuer Build ist bereit zur Installation."],
    feedback: (f) => [`${f.app}: neue Rückmeldung (${f.tag})`, f.description],
    storeUpload: (f) => [
      `${f.app}: an ${f.store} gesendet`,
      `Build ${f.version} wurde zu ${f.store} hochgeladen.`,
    ],
    test: ["Tarmac", "Benachrichtigungen funktionieren auf diesem Gerät."],
    noDescription: "(keine Beschreibung)",
  },
  ru: {
    build: (f) => [`${f.app} ${versionLabel(f)}`, "Новая сборка готова к установке."],
    feedback: (f) => [`${f.app}: новый отзыв (${f.tag})`, f.description],
    storeUpload: (f) => [`${f.app}: отправлено в ${f.store}`, `Сборка ${f.version} загружена в ${f.store}.`],
    test: ["Tarmac", "Уведомления на этом устройстве работают."],
    noDescription: "(без описания)",
  },
};

function versionLabel(f: { version: string; buildNumber: string }): string {
  return f.buildNumber && f.buildNumber !== f.version ? `${f.version} (${f.buildNumber})` : f.version;
}

/**
 * Push services accept about 4 KB of encrypted payload; titles and bodies are cut well below,
 * at a character boundary, so a long feedback text still fits.
 */
function clip(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

export function languageOf(value: string): Language {
  return value === "de" || value === "ru" ? value : "en";
}

/** The message in the subscriber's language, as the service worker shows it. */
export function writeMessage(facts: MessageFacts, language: Language): PushMessage {
  const t = texts[language];
  switch (facts.kind) {
    case "build": {
      const [title, body] = t.build(facts);
      return { kind: "build", title: clip(title, 120), body, url: facts.url, tag: `build-${facts.appId}` };
    }
    case "feedback": {
      const [title, body] = t.feedback({ ...facts, description: facts.description || t.noDescription });
      return {
        kind: "feedback",
        title: clip(title, 120),
        body: clip(body, 400),
        url: facts.url,
        tag: `feedback-${facts.reportId}`,
      };
    }
    case "store_upload": {
      const [title, body] = t.storeUpload(facts);
      return {
        kind: "store_upload",
        title: clip(title, 120),
        body: clip(body, 400),
        url: facts.url,
        tag: `store-${facts.appId}`,
      };
    }
    case "test":
      return { kind: "test", title: t.test[0], body: t.test[1], url: "/dashboard/profile", tag: "test" };
  }
}
