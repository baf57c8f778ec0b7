// The API half of scripts/container-smoke.sh: what a person and a CI client do first, against a
// running Tarmac, through its public HTTP API only.
//   ADMIN_TOKEN=... node scripts/container-smoke-api.mjs first URL EMAIL PASSWORD
//     signs up, activates the account with the link an instance administrator (ADMIN_TOKEN, an
//     API key from the image's issue-admin-token command) reads in the outbox, which only a
//     running worker fills, signs in, creates an organization, uploads two Android builds whose icons need the
//     image codecs (a vector drawable, a WebP), and downloads each build back byte for byte;
//   node scripts/container-smoke-api.mjs again URL EMAIL PASSWORD
//     signs in and downloads the same builds again (after a restart: they were kept).
// Any failure exits 1 with one line saying which step failed.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [mode, baseUrl, email, password] = process.argv.slice(2);
if (!["first", "again"].includes(mode) || !baseUrl || !email || !password) {
  console.error("usage: container-smoke-api.mjs first|again URL EMAIL PASSWORD");
  process.exit(2);
}
const fixtures = ["vector.apk", "adaptive-webp.apk"].map((name) => ({
  name,
  bytes: readFileSync(
    fileURLToPath(new URL(`../packages/inspector/fixtures/android/${name}`, import.meta.url)),
  ),
}));
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

function fail(step, detail) {
  console.error(`FAILED: ${step}: ${detail}`);
  process.exit(1);
}

/** One call; answers the parsed JSON of a 2xx reply, or stops the run naming the step. */
async function call(step, path, { token, json, form, method } = {}) {
  const headers = token ? { authorization: `Token ${token}` } : {};
  let body;
  if (json) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) body = form;
  const response = await fetch(`${baseUrl}${path}`, {
    method: method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const text = await response.text();
  if (!response.ok) fail(step, `${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function signIn() {
  return (await call("sign in", "/api/user/login/", { json: { email, password } })).token;
}

/** The activation mail is queued with the account and sent by a worker: wait for it. */
async function activationCode() {
  const token = process.env.ADMIN_TOKEN ?? fail("read the outbox", "ADMIN_TOKEN is not set");
  for (let attempt = 0; attempt < 60; attempt++) {
    const outbox = await call("read the outbox", `/api/admin/outbox/?to=${encodeURIComponent(email)}`, {
      token,
    });
    const code = outbox.results.map((mail) => /\/activate\/([^\s"<]+)/.exec(mail.text)?.[1]).find(Boolean);
    if (code) return decodeURIComponent(code);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return fail("activation mail", "no mail with an activation link within 30 s (is a worker running?)");
}

/** Downloads the newest build of an app the way an installer does: the signed redirect, then the file. */
async function downloadBuild(token, appId, fixture) {
  const app = await call("read the app", `/api/applications/${appId}/?builds=1`, { token });
  const versionId = app.builds.results[0]?.id;
  if (!versionId) fail("read the app", `app ${appId} has no build`);
  const response = await fetch(`${baseUrl}/api/versions/${versionId}/download/`, {
    headers: { authorization: `Token ${token}` },
  });
  if (!response.ok) fail(`download ${fixture.name}`, `${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (sha256(bytes) !== sha256(fixture.bytes))
    fail(`download ${fixture.name}`, "the bytes differ from the upload");
  console.log(`downloaded ${fixture.name} (${bytes.length} bytes, same SHA-256)`);
}

async function uploadBuild(token, organization, fixture) {
  const form = new FormData();
  form.set("organization", String(organization));
  form.set("file", new Blob([fixture.bytes]), fixture.name);
  const preload = await call(`upload ${fixture.name}`, "/api/applicationadd/?preload=1", { token, form });
  // The icon is read from the build by the inspector's codecs (native resvg, WebAssembly WebP).
  if (!preload.icon) fail(`upload ${fixture.name}`, "no icon was read from the build");
  const icon = await fetch(preload.icon);
  const png = Buffer.from(await icon.arrayBuffer());
  if (!icon.ok || png.toString("latin1", 1, 4) !== "PNG") fail(`icon of ${fixture.name}`, `${icon.status}`);
  const app = await call(`confirm ${fixture.name}`, "/api/applications/", {
    token,
    json: { organization, preload_path: preload.preload_path, project_title: "Smoke", title: fixture.name },
  });
  console.log(`uploaded ${fixture.name} as app ${app.id} (${preload.bundle_id}, icon ${png.length} bytes)`);
  return app.id;
}

if (mode === "first") {
  await call("sign up", "/api/user/register/", {
    json: { email, password, first_name: "Smoke", last_name: "Test" },
  });
  await call("activate", `/api/user/activate/${encodeURIComponent(await activationCode())}/`, {
    json: {},
  });
  const token = await signIn();
  console.log(`signed up, activated and signed in as ${email}`);
  const organization = await call("create an organization", "/api/organizations/", {
    token,
    json: { title: "Smoke", subdomain: `smoke-${Date.now()}` },
  });
  for (const fixture of fixtures) {
    await downloadBuild(token, await uploadBuild(token, organization.id, fixture), fixture);
  }
} else {
  const token = await signIn();
  const apps = await call("list the apps", "/api/applications/?page_size=100", { token });
  for (const fixture of fixtures) {
    const app = apps.results.find((one) => one.title === fixture.name);
    if (!app) fail("list the apps", `no app ${fixture.name}`);
    await downloadBuild(token, app.id, fixture);
  }
}
