import { inLanguage, type SeedContext, type SeedEntry } from "./seed-entry.ts";

export function germanPages(context: SeedContext): SeedEntry[] {
  const contact = context.adminEmail
    ? `[${context.adminEmail}](mailto:${context.adminEmail})`
    : "die Adresse, die der Betreiber dieser Instanz veröffentlicht";
  return inLanguage("de", [
    {
      kind: "page",
      slug: "about",
      title: "Über Tarmac",
      metaDescription:
        "Tarmac ist ein selbst gehosteter Dienst, der Android-, iOS-, Windows- und macOS-Builds an Teams und Tester verteilt.",
      body: `
Tarmac verteilt App-Builds. Organisationen laden Android-, iOS-, Windows- und macOS-Builds aus dem
Browser oder der CI hoch und geben sie über Installationslinks an ihre Teams, Tester und Nutzer
weiter — so wie es die Verteilung in App Center tat, auf einem Server, den Sie kontrollieren.

## Was es tut
- **Uploads** aus dem Browser, mit dem Befehl \`tarmac\`, einer GitHub Action oder \`curl\`,
  gestreamt und fortsetzbar; die Metadaten liest Tarmac aus der Datei.
- **Verteilung** über Installationslinks, Testergruppen und E-Mails, mit Installationszahlen.
- **Feedback und Updates** über das Protokoll des Updraft-SDK.
- **Organisationen** mit Rollen (Eigentümer, Administrator, Teamleiter, mobiler Nutzer, Tester),
  Teams, Projekten, Single Sign-on, eigenem Mailserver und eigenem Speicher.
- **Integrationen**: signierte Webhooks, Nachrichten an Slack, Teams und Discord.

## Wie es läuft
Ein Node.js-Prozess mit eingebetteter Datenbank genügt für den Anfang (\`npm install && npm start\`).
Für mehr Last läuft derselbe Code in mehreren Prozessen auf PostgreSQL mit S3-kompatiblem,
Google-Cloud- oder Azure-Speicher. Nichts meldet sich nach Hause.
`,
    },
    {
      kind: "page",
      slug: "privacy",
      title: "Datenschutzhinweis",
      metaDescription:
        "Was diese Tarmac-Instanz über Sie speichert, wozu, und wie Sie Auskunft oder Löschung erhalten.",
      body: `
Diese Tarmac-Instanz wird von ihrem Betreiber auf eigener Infrastruktur betrieben. Der Betreiber
ist Verantwortlicher für Ihre Daten; Sie erreichen ihn unter ${contact}.

## Was gespeichert wird
- **Ihr Konto**: E-Mail-Adresse, Name, ein Passwort-Hash (Argon2id; das Passwort selbst wird nie
  gespeichert), Einstellungen der Zwei-Faktor-Anmeldung sowie Sitzungen und API-Schlüssel (als Hash).
- **Organisationen**, denen Sie angehören: Ihre Rolle, Teams und Projekte.
- **Builds und ihre Metadaten**, die Sie oder Ihre Organisation hochladen, und die Installationslinks dazu.
- **Installationen**: wann ein Build über einen Link installiert wurde, mit der Plattform des
  Geräts und der Gerätekennung, falls Sie sie auf der Seite für Gerätekennungen freigegeben haben.
- **Feedback** aus Apps: Screenshot, Text, Gerätemodell und Systemversion.
- **E-Mails** an Sie, im Postausgang nur, wenn die Instanz keinen Mailserver hat.
- **Serverprotokolle** mit IP-Adressen und Pfaden, für Betrieb und Sicherheit des Dienstes.

## Cookies und lokaler Speicher
Ein Sitzungs-Cookie hält Sie 14 Tage angemeldet; ein \`XSRF-TOKEN\`-Cookie schützt Formulare vor
websiteübergreifenden Anfragen. Ihre Sprache sowie die zuletzt geöffnete Organisation und App
liegen im lokalen Speicher Ihres Browsers. Nur wenn der Betreiber Google Tag Manager eingerichtet
hat, gehen Seitenaufrufe dorthin; sonst wird nichts von Dritten geladen.

## Wer sonst Daten erhält
Nur die Dienste, die der Betreiber oder Ihre Organisation eingerichtet hat: ein Mailserver,
Cloud-Speicher, ein Single-Sign-on-Anbieter, der Zahlungsdienst Stripe (Kartendaten gehen direkt
an Stripe und nie an diesen Server) und die Webhooks oder Chat-Kanäle Ihrer Organisation.

## Ihre Rechte
Ihre Profilseite exportiert alles, was über Sie gespeichert ist. Dort berichtigen Sie Name und
Adresse und löschen Ihr Konto. Für alles andere schreiben Sie an ${contact}.
`,
    },
    {
      kind: "page",
      slug: "terms",
      title: "Nutzungsbedingungen",
      metaDescription: "Die Bedingungen für die Nutzung dieser Tarmac-Instanz.",
      body: `
Diese Bedingungen gelten für diese Tarmac-Instanz, betrieben von ihrem Betreiber (siehe
[Impressum](/imprint)).

## Der Dienst
Tarmac speichert die Builds, die Sie hochladen, und gibt sie an die Menschen weiter, die Sie
wählen. Der Betreiber kann den Dienst ändern, begrenzen oder einstellen; Tarife und ihre Grenzen
stehen auf der [Preisseite](/pricing).

## Ihre Inhalte
Alle Rechte an Builds, Texten und Screenshots bleiben bei Ihnen. Sie räumen dem Betreiber nur ein,
was nötig ist, um sie zu speichern und an die gewählten Menschen auszuliefern. Laden Sie nur
Software hoch, die Sie verteilen dürfen, und nichts, was den Geräten der Installierenden schadet.

## Konten
Halten Sie Passwort und API-Schlüssel geheim; Handlungen damit gelten als Ihre. Der Eigentümer
einer Organisation entscheidet, wer dazugehört und was er darf.

## Bezahlte Tarife
Wo die Abrechnung aktiviert ist, verlängern sich bezahlte Tarife monatlich und sind zum Ende des
Zeitraums kündbar; Zahlungen wickelt Stripe ab.

## Haftung
Der Dienst wird bereitgestellt, wie er ist. Bewahren Sie eigene Kopien Ihrer Builds auf. Der
Betreiber haftet unbeschränkt für Vorsatz und grobe Fahrlässigkeit, im Übrigen nach zwingendem Recht.

Fragen: ${contact}.
`,
    },
    {
      kind: "page",
      slug: "imprint",
      title: "Impressum",
      metaDescription: "Wer diese Tarmac-Instanz betreibt.",
      body: `
Diese Tarmac-Instanz wird selbst betrieben: von der Organisation, die sie installiert hat, nicht
von den Autoren der Software Tarmac.

## Betreiber
Kontakt: ${contact}

Adresse im Web: ${context.publicUrl}

Betreiber in Deutschland ergänzen hier nach § 5 DDG Namen, Anschrift und Registereintrag, unter
**Administration → Website-Inhalte**.
`,
    },
    {
      kind: "page",
      slug: "moving-from-updraft",
      title: "Umstieg von Updraft",
      metaDescription:
        "Upload-URLs, fastlane-Action, Gradle-Plugin, Bitrise-Schritt und SDKs von Updraft funktionieren mit Tarmac nach Änderung des Hostnamens.",
      body: `
Tarmac beantwortet die API von Updraft; der Umstieg besteht darin, den Hostnamen zu ändern.

## Was weiter funktioniert
- CI-Upload-URLs \`/api/app_upload/{App-Schlüssel}/{API-Schlüssel}/\`, mit \`success\` und
  \`public_link\` in der Antwort, wie das Gradle-Plugin es erwartet.
- fastlane-Action, Gradle-Plugin und Bitrise-Schritt von Updraft sowie die dokumentierten \`curl\`-Befehle.
- Anmeldung mit \`{username, password, token}\` und der Header \`Authorization: Token …\`.
- Verteilergruppen und der zweistufige Austausch von Builds.
- Die SDKs für Android und iOS (siehe [SDK](/sdk)).

## Was zu tun ist
1. Organisation und Apps anlegen oder den neuesten Build jeder App einmal hochladen.
2. Den Schlüssel jeder App von ihrer Seite und Ihren API-Schlüssel aus dem Profil nehmen.
3. In CI-Einstellungen und SDK-Start den Hostnamen durch \`${context.publicUrl}\` ersetzen.
`,
    },
  ]);
}
