import { germanPages } from "./de-pages.ts";
import { inLanguage, type SeedContext, type SeedEntry } from "./seed-entry.ts";

export function germanSeed(context: SeedContext): SeedEntry[] {
  return [
    ...inLanguage("de", [
      {
        kind: "lp",
        slug: "main",
        title: "Jeder Build bei den Menschen, die ihn testen",
        seoTitle: "Tarmac — selbst gehostete Verteilung von Android-, iOS-, Windows- und macOS-Builds",
        metaDescription:
          "APK, AAB, IPA, MSIX, MSI, DMG und PKG aus dem Browser oder der CI hochladen und über Installationslinks verteilen, die auf dem Telefon funktionieren. Läuft auf Ihrem eigenen Server.",
        socialImage: "/media/social/tarmac-card.svg",
        body: `
Tarmac nimmt die Builds Ihres Teams — Android, iOS, Windows und macOS — und bringt jeden
innerhalb einer Minute zu den richtigen Menschen: Testern, Kolleginnen, Kunden. Hochladen aus
dem Browser oder der CI, Installationslink verschicken und sehen, wer was installiert hat.

## Ein Ort für alle Plattformen
Android \`.apk\` und \`.aab\`, iOS \`.ipa\`, Windows \`.msix\`, \`.msi\`, \`.appx\` und \`.zip\`,
macOS \`.dmg\`, \`.pkg\` und \`.zip\`. Name, Version, Build-Nummer, Icon und Mindestsystem liest
Tarmac aus der Datei selbst — niemand muss sie abtippen.

## Installationslinks, die auf dem Telefon funktionieren
Jeder Link öffnet eine Seite, die zuerst die Plattform des Besuchers zeigt: Das iPhone bekommt
die Installation over the air, das Android-Telefon die APK, der Laptop den Installer. Links können
ein Passwort oder ein Konto verlangen, ablaufen oder nach einer Zahl von Installationen enden.

## Uploads aus der CI
Der Befehl \`tarmac\`, eine GitHub Action und einfaches \`curl\` laden aus jeder Pipeline hoch.
Große Builds fließen direkt in den Speicher und setzen nach einem Verbindungsabbruch fort.

## Feedback und Update-Hinweise
Apps mit dem Updraft-SDK für Android oder iOS weisen Tester auf neuere Builds hin und senden
Feedback per Schütteln mit Screenshot in den Posteingang der App.

## Umstieg von Updraft
Hostnamen ändern, alles andere bleibt: Upload-URLs, fastlane-Action, Gradle-Plugin und
API-Schlüssel funktionieren wie bisher.

## Ihr Server, Ihre Daten
Tarmac wird selbst betrieben: \`npm install && npm start\` startet es mit eingebetteter Datenbank,
und derselbe Code läuft auf PostgreSQL mit S3-, Google-Cloud- oder Azure-Speicher, wenn Sie
wachsen. Single Sign-on (Okta, Google, Entra ID, OIDC), eigener Mailserver und eigener Bucket je
Organisation.

## Preise
${context.pricing("de")}

Jeder Tarif enthält jede Funktion; die Tarife unterscheiden sich nur in ihren Grenzen. Siehe
[Preise](/pricing).
`,
      },
      {
        kind: "main-menu",
        slug: "main",
        title: "Hauptmenü",
        body: "- [Funktionen](/promo)\n- [Preise](/pricing)\n- [Blog](/blog)\n- [FAQ](/faq)\n- [Über Tarmac](/about)",
      },
      {
        kind: "mobile-menu",
        slug: "main",
        title: "Mobiles Menü",
        body: "- [Funktionen](/promo)\n- [Preise](/pricing)\n- [Blog](/blog)\n- [FAQ](/faq)\n- [Neuigkeiten](/whats-new)\n- [Registrieren](/signup)",
      },
      {
        kind: "footer-menu",
        slug: "main",
        title: "Fußzeilenmenü",
        body: "- [Über Tarmac](/about)\n- [SDK](/sdk)\n- [Neuigkeiten](/whats-new)\n- [Umstieg von Updraft](/moving-from-updraft)\n- [Datenschutz](/privacy)\n- [Nutzungsbedingungen](/terms)\n- [Impressum](/imprint)",
      },
      {
        kind: "footer",
        slug: "main",
        title: "Fußzeile",
        body: "Tarmac verteilt App-Builds für Android, iOS, Windows und macOS. Diese Instanz läuft auf dem eigenen Server ihres Betreibers.",
      },
      {
        kind: "reg",
        slug: "main",
        title: "Ihr Tarmac-Konto anlegen",
        body: `
Mit einem Konto legen Sie eine Organisation an, laden Builds hoch und laden Ihr Team und Ihre
Tester ein.

- Uploads aus dem Browser und aus der CI
- Installationslinks für Telefone und Computer
- Feedback und Update-Hinweise über das Updraft-SDK

Wir senden einen Link, um Ihre E-Mail-Adresse zu bestätigen. Mit der Registrierung akzeptieren
Sie die [Nutzungsbedingungen](/terms) und den [Datenschutzhinweis](/privacy).
`,
      },
      {
        kind: "faq",
        slug: "main",
        title: "Häufige Fragen",
        body: `
## Welche Dateien kann ich hochladen?
Android \`.apk\` und \`.aab\`; iOS \`.ipa\`; Windows \`.msix\`, \`.msixbundle\`, \`.msixupload\`,
\`.msi\`, \`.appx\`, \`.appxbundle\`, \`.appxupload\` und \`.zip\`; macOS \`.dmg\`, \`.pkg\` und \`.zip\`.

## Können Tester iOS-Builds over the air installieren?
Ja, wenn der Server über HTTPS erreichbar ist und der Build für ihr Gerät signiert ist (Ad-hoc
oder Enterprise). Die [Seite für Gerätekennungen](/get-my-udid) sammelt die UDID eines Geräts für
Ihr Provisioning-Profil.

## Wie groß darf ein Build sein?
Bis zu 8 GiB je Upload, sofern der Betreiber nichts anderes einstellt; der Speicher Ihres Tarifs
gilt zusätzlich. Uploads fließen direkt in den Speicher und lassen sich fortsetzen.

## Wo liegen meine Dateien?
Wo der Betreiber dieser Instanz es festgelegt hat: auf der eigenen Platte, in S3-kompatiblem
Speicher, Google Cloud Storage oder Azure Blob Storage. Eine Organisation kann auch einen eigenen
Bucket anbinden.

## Funktioniert Tarmac mit dem Updraft-SDK und seinen Werkzeugen?
Ja. Die SDKs für Android und iOS, die fastlane-Action, das Gradle-Plugin und der Bitrise-Schritt
funktionieren nach Änderung des Hostnamens. Siehe [Umstieg von Updraft](/moving-from-updraft).

## Kann ich mich mit meinem Firmenkonto anmelden?
Organisationen richten Single Sign-on mit Okta, Google Workspace, Microsoft Entra ID, jedem
SAML-Identitätsanbieter oder OpenID Connect ein.

## Wie bekomme ich meine Daten heraus?
Ihre Profilseite exportiert Ihre personenbezogenen Daten, und Builds lassen sich jederzeit
herunterladen. Das Löschen einer Organisation entfernt ihre Builds und Datensätze.
`,
      },
      {
        kind: "page-sdk",
        slug: "main",
        title: "Feedback und Updates aus Ihrer App",
        metaDescription:
          "Die quelloffenen Updraft-SDKs für Android und iOS mit Tarmac nutzen: Update-Hinweise und Feedback per Schütteln.",
        body: `
Tarmac spricht das Protokoll der quelloffenen Updraft-SDKs. Eine App mit dem SDK fragt Tarmac, ob
es einen neueren Build gibt, bietet ihn dem Tester an und sendet Feedback — einen Screenshot zum
Bemalen, eine Beschreibung und das Gerät — in den Posteingang der App.

## Android
\`\`\`kotlin
Updraft.start(UpdraftSettings(appKey = "<App-Schlüssel>", sdkKey = "<SDK-Schlüssel>", baseUrl = "${context.publicUrl}/api/"))
\`\`\`

## iOS
\`\`\`swift
Updraft.shared.baseUrl = "${context.publicUrl}"
Updraft.shared.start(sdkKey: "<SDK-Schlüssel>", appKey: "<App-Schlüssel>")
\`\`\`

## Wo die Schlüssel stehen
Der App-Schlüssel steht auf der Seite der App, der SDK-Schlüssel in den Einstellungen der
Organisation. Auf dem Reiter **Feedback** der App schaltet ein Administrator Feedback und
Update-Hinweise ein oder aus.
`,
      },
      {
        kind: "dashboard-setting",
        slug: "welcome",
        title: "Willkommen bei Tarmac",
        body: "Laden Sie Ihren ersten Build mit **App hinzufügen** hoch. Auf dem Reiter **Verteilung** der App entsteht dann ein Installationslink, und unter **Organisation → Mitarbeiter** laden Sie Ihr Team ein.",
      },
      {
        kind: "dashboard-setting",
        slug: "announcement-public-site",
        title: "Die öffentliche Website ist bearbeitbar",
        publishedAt: "2026-11-28T12:00:00Z",
        body: "Administratoren der Instanz bearbeiten Startseite, Menüs, Seiten, FAQ und Blog jetzt in drei Sprachen unter **Administration → Website-Inhalte**.",
      },
      {
        kind: "whats-new",
        slug: "2026-11-28-site",
        title: "Eine öffentliche Website in drei Sprachen",
        publishedAt: "2026-11-28T12:00:00Z",
        body: "Startseite, Preise, Blog mit RSS- und Atom-Feed, FAQ und Seiten, bearbeitet von Administratoren auf Englisch, Deutsch und Russisch. Geteilte Links zeigen eine Vorschau.",
      },
      {
        kind: "whats-new",
        slug: "2026-11-27-resumable",
        title: "Fortsetzbare Uploads",
        publishedAt: "2026-11-27T12:00:00Z",
        body: "Große Builds laden über das tus-Protokoll hoch: Nach einem Verbindungsabbruch geht es an der Stelle weiter, statt von vorn zu beginnen. Der Befehl `tarmac` nutzt es von selbst.",
      },
      {
        kind: "whats-new",
        slug: "2026-11-25-feedback",
        title: "Feedback, Update-Hinweise und Webhooks",
        publishedAt: "2026-11-25T12:00:00Z",
        body: "Apps mit dem Updraft-SDK senden Feedback mit Screenshots und weisen auf Updates hin. Signierte Webhooks und Nachrichten an Slack, Teams und Discord melden neue Builds.",
      },
      {
        kind: "whats-new",
        slug: "2026-11-21-install-pages",
        title: "Installationslinks und Installationsseiten",
        publishedAt: "2026-11-21T12:00:00Z",
        body: "Installationslinks mit Passwort, Ablauf und Installationsgrenze; eine Installationsseite für das Telefon mit iOS-Installation over the air; UDID-Erfassung für Provisioning-Profile.",
      },
    ]),
    ...germanPages(context),
  ];
}
