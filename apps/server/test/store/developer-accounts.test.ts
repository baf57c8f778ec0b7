import { describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { storeDeveloperAccounts } from "../helpers/tables.ts";
import {
  addAppleAccount,
  addGoogleAccount,
  appleKey,
  googleServiceAccount,
  postForm,
  useStoreWorld,
  world,
} from "./store-world.ts";

useStoreWorld();

describe("developer accounts", () => {
  it("saves an App Store Connect key once Apple accepted a token signed with it, seals it and never sends it back", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { key, account } = await addAppleAccount(owner.token, organization.id);
    expect(account).toMatchObject({
      org: organization.id,
      store: "app_store",
      key_name: "CI key",
      issuer_id: key.issuerId,
      key_id: key.keyId,
      client_email: null,
    });
    expect(JSON.stringify(account)).not.toContain("PRIVATE KEY");
    // The fake saw a signed read: the token was checked against the key's public half.
    expect(world.apple.requests.some((request) => request.url.startsWith("/v1/apps?limit=1"))).toBe(true);
    const [row] = await world.t.database.db.select().from(storeDeveloperAccounts);
    expect(row?.sealedKey).not.toContain("PRIVATE KEY");
    const listed = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: authHeader(owner.token),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([account]);
    expect(listed.body).not.toContain("PRIVATE KEY");
  });

  it("says exactly why an Apple key is refused: unknown to Apple, revoked, not a .p8, no file", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const unknown = appleKey();
    const fields = {
      org: String(organization.id),
      key_name: "k",
      issuer_id: unknown.issuerId,
      key_id: unknown.keyId,
    };
    const refused = await postForm(owner.token, "/api/apple-developer-accounts/", fields, {
      private_key_file: { name: "AuthKey.p8", body: unknown.p8 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().private_key_file[0]).toMatch(/App Store Connect refused the key: .*revoked/);

    const revoked = appleKey();
    world.apple.addKey(revoked.keyId, revoked.issuerId, revoked.publicKey);
    world.apple.revokeKey(revoked.keyId);
    const again = await postForm(
      owner.token,
      "/api/apple-developer-accounts/",
      { ...fields, issuer_id: revoked.issuerId, key_id: revoked.keyId },
      {
        private_key_file: { name: "AuthKey.p8", body: revoked.p8 },
      },
    );
    expect(again.json().private_key_file[0]).toMatch(/NOT_AUTHORIZED|credentials are missing or invalid/);

    const notP8 = await postForm(owner.token, "/api/apple-developer-accounts/", fields, {
      private_key_file: { name: "AuthKey.p8", body: googleServiceAccount().json },
    });
    expect(notP8.json()).toEqual({
      private_key_file: ["The key file is not a PEM private key (the .p8 file from App Store Connect)."],
    });
    const noFile = await postForm(owner.token, "/api/apple-developer-accounts/", fields);
    expect(noFile.json()).toEqual({ private_key_file: ["No file was submitted."] });
    const badIds = await postForm(
      owner.token,
      "/api/apple-developer-accounts/",
      { ...fields, issuer_id: "x", key_id: "short" },
      {
        private_key_file: { name: "AuthKey.p8", body: unknown.p8 },
      },
    );
    expect(Object.keys(badIds.json()).sort()).toEqual(["issuer_id", "key_id"]);
    const saved = await world.t.database.db.select().from(storeDeveloperAccounts);
    expect(saved.filter((row) => row.organizationId === organization.id)).toEqual([]);
  });

  it("saves a Google service account once Google issued a token for it; a disabled one is refused with Google's words", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { serviceAccount, account } = await addGoogleAccount(owner.token, organization.id);
    expect(account).toMatchObject({
      store: "google_play",
      key_name: "Play publisher",
      client_email: serviceAccount.email,
      issuer_id: null,
    });

    const disabled = googleServiceAccount();
    world.google.addServiceAccount(disabled.email, disabled.publicKey);
    world.google.disableServiceAccount(disabled.email);
    const refused = await postForm(
      owner.token,
      "/api/google-developer-accounts/",
      { org: String(organization.id), key_name: "old" },
      {
        private_key_file: { name: "key.json", body: disabled.json },
      },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().private_key_file[0]).toMatch(
      /Google refused the service account: .*account disabled/,
    );
    const notJson = await postForm(
      owner.token,
      "/api/google-developer-accounts/",
      { org: String(organization.id), key_name: "x" },
      {
        private_key_file: { name: "key.json", body: "-----BEGIN PRIVATE KEY-----" },
      },
    );
    expect(notJson.json()).toEqual({
      private_key_file: ["The key file is not JSON (download the service account's JSON key)."],
    });
  });

  it("lets only owners and admins manage accounts", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const admin = await addMember(world.t, organization.id, 2);
    const mobile = await addMember(world.t, organization.id, 3);
    const asAdmin = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: authHeader(admin.token),
    });
    expect(asAdmin.statusCode).toBe(200);
    const asMobile = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: authHeader(mobile.token),
    });
    expect(asMobile.statusCode).toBe(403);
    const deleteByMobile = await world.t.app.inject({
      method: "DELETE",
      url: `/api/apple-developer-accounts/${account.id}/`,
      headers: authHeader(mobile.token),
    });
    expect(deleteByMobile.statusCode).toBe(403);
    const wrongKind = await world.t.app.inject({
      method: "DELETE",
      url: `/api/google-developer-accounts/${account.id}/`,
      headers: authHeader(admin.token),
    });
    expect(wrongKind.statusCode).toBe(404);
    const deleted = await world.t.app.inject({
      method: "DELETE",
      url: `/api/apple-developer-accounts/${account.id}/`,
      headers: authHeader(admin.token),
    });
    expect(deleted.statusCode).toBe(204);
    const listed = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: authHeader(owner.token),
    });
    expect(listed.json()).toEqual([]);
  });
});
