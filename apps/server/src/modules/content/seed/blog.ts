import type { SeedEntry } from "./seed-entry.ts";

const author = "The Tarmac team";

/** The blog's first posts; the first is also written in German and Russian, the others fall back to English. */
export function blogSeed(): SeedEntry[] {
  return [
    {
      kind: "blog",
      slug: "self-hosted-build-distribution",
      language: "en",
      title: "Build distribution you run yourself",
      summary: "Why Tarmac exists, and what one `npm start` gives you.",
      author,
      coverImage: "/media/blog/self-hosted.svg",
      publishedAt: "2026-11-21T09:00:00Z",
      body: `
When App Center's distribution went away, teams that shipped test builds every day had to find
another way to get them onto phones. Tarmac is that way, on a server you run.

## What one process gives you
\`npm install && npm start\` runs the API, the background workers and the web app in one process
with an embedded PostgreSQL and files on local disk. Upload an \`.apk\` or \`.ipa\` in the browser,
create an install link, open it on a phone, install.

## What it grows into
The same code runs as several processes on PostgreSQL, with builds in S3-compatible storage,
Google Cloud Storage or Azure. Downloads go straight from the bucket through short-lived signed
links, so the server is not in the way of a 2 GB installer.

## What stays yours
Builds, tester lists and feedback stay on infrastructure you chose. Organizations can bring their
own mail server, their own bucket and their own identity provider.
`,
    },
    {
      kind: "blog",
      slug: "self-hosted-build-distribution",
      language: "de",
      title: "Build-Verteilung im eigenen Betrieb",
      summary: "Warum es Tarmac gibt und was ein einziges `npm start` bietet.",
      author: "Das Tarmac-Team",
      coverImage: "/media/blog/self-hosted.svg",
      publishedAt: "2026-11-21T09:00:00Z",
      body: `
Als die Verteilung in App Center wegfiel, brauchten Teams, die täglich Testbuilds ausliefern, einen
neuen Weg auf die Telefone. Tarmac ist dieser Weg, auf einem Server, den Sie betreiben.

## Was ein Prozess bietet
\`npm install && npm start\` startet API, Hintergrundjobs und Web-App in einem Prozess mit
eingebettetem PostgreSQL und Dateien auf der lokalen Platte. \`.apk\` oder \`.ipa\` im Browser
hochladen, Installationslink anlegen, auf dem Telefon öffnen, installieren.

## Wohin es wächst
Derselbe Code läuft in mehreren Prozessen auf PostgreSQL, mit Builds in S3-kompatiblem Speicher,
Google Cloud Storage oder Azure. Downloads kommen über kurzlebige signierte Links direkt aus dem
Bucket, der Server steht einem 2-GB-Installer nicht im Weg.

## Was Ihres bleibt
Builds, Testerlisten und Feedback bleiben auf der Infrastruktur, die Sie gewählt haben.
Organisationen bringen eigenen Mailserver, eigenen Bucket und eigenen Identitätsanbieter mit.
`,
    },
    {
      kind: "blog",
      slug: "self-hosted-build-distribution",
      language: "ru",
      title: "Распространение сборок на своём сервере",
      summary: "Зачем нужен Tarmac и что даёт один `npm start`.",
      author: "Команда Tarmac",
      coverImage: "/media/blog/self-hosted.svg",
      publishedAt: "2026-11-21T09:00:00Z",
      body: `
Когда распространение в App Center закрылось, командам, которые каждый день выпускают тестовые
сборки, понадобился новый путь на телефоны. Tarmac — этот путь, на сервере, которым управляете вы.

## Что даёт один процесс
\`npm install && npm start\` запускает API, фоновые задачи и веб-приложение в одном процессе со
встроенным PostgreSQL и файлами на локальном диске. Загрузите \`.apk\` или \`.ipa\` в браузере,
создайте ссылку установки, откройте её на телефоне и установите.

## Куда он растёт
Тот же код работает несколькими процессами на PostgreSQL, а сборки хранятся в S3-совместимом
хранилище, Google Cloud Storage или Azure. Скачивание идёт прямо из хранилища по короткоживущим
подписанным ссылкам, и сервер не стоит на пути установщика в 2 ГБ.

## Что остаётся вашим
Сборки, списки тестировщиков и отзывы остаются на выбранной вами инфраструктуре. Организации
подключают свой почтовый сервер, своё хранилище и своего провайдера удостоверений.
`,
    },
    {
      kind: "blog",
      slug: "install-links-on-phones",
      language: "en",
      title: "Install links that work on the phone in your hand",
      summary: "How the install page picks the right build, and what iOS needs for installs over the air.",
      author,
      coverImage: "/media/blog/install-links.svg",
      publishedAt: "2026-11-24T09:00:00Z",
      body: `
An install link is usually opened on a phone, often from a chat app's built-in browser. The
install page is built for that.

## The visitor's platform first
The page reads what kind of device opened it and shows that platform's newest build on top: the
APK on Android, the over-the-air install on an iPhone, the installer on Windows or a Mac. Other
platforms' builds are a tap away.

## iOS over the air
iOS installs an \`.ipa\` from a manifest served over HTTPS, fetched by a system service that sends
no cookies. Tarmac hands it short-lived signed links instead, and warns on the app page when the
server is not reached over HTTPS or the build's profile does not include the device.

## Limits that mean something
A link can need a password or an account in the organization, expire on a date, or stop after a
number of installs. Every install is counted per build.
`,
    },
    {
      kind: "blog",
      slug: "uploads-from-ci",
      language: "en",
      title: "Uploading builds from CI, resumably",
      summary:
        "The `tarmac` command, the GitHub Action and curl, and why large uploads no longer start over.",
      author,
      coverImage: "/media/blog/ci-uploads.svg",
      publishedAt: "2026-11-27T09:00:00Z",
      body: `
Most builds reach Tarmac from a pipeline. Three ways get them there:

- the \`tarmac\` command: \`tarmac upload App.ipa --app "$APP_KEY" --ready\`, with the server in
  \`TARMAC_URL\` and the API key in \`TARMAC_API_KEY\`;
- the GitHub Action, which wraps the same command;
- \`curl\` against the upload URL, which also serves Updraft's existing integrations.

## Resumable by default
Uploads from the command go through the tus protocol. The body is stored in parts as it streams;
a connection that breaks loses at most the part under way, and the command continues where the
server's kept parts end. A 3 GB game build on a flaky runner no longer starts from zero.

## What comes back
With \`--json\` the command prints one JSON object naming the app and the version read from the
file, so the next pipeline step can post it wherever your team talks.
`,
    },
  ];
}
