import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeFromMail, strongPassword, uniqueEmail, waitForMail } from "../accounts/helpers.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { createOrganization, createProject, createTeam } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("joining an organization takes the person's consent", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  const call = (token: string, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });
  const invite = (token: string, payload: object) => call(token, "POST", "/api/usersinorgs/", payload);

  it("mails the invitation in the organization's name, as plain text and HTML", async () => {
    const title = `Tom & Jerry's <Lab>`;
    const { organization, owner } = await createOrganization(t, { title });
    const email = uniqueEmail("layout").toLowerCase();
    expect(
      (await invite(owner.token, { userid: email, organization: organization.id, role: 3 })).statusCode,
    ).toBe(201);
    const [mail] = await waitForMail(t, email);
    const code = codeFromMail(mail as NonNullable<typeof mail>);
    const link = `http://tarmac.test/activate/${code}`;
    expect(mail?.subject).toBe(`You are invited to ${title} on Tarmac`);
    expect(mail?.text).toContain(`Accept the invitation: ${link}`);
    expect(mail?.text).toMatch(/— Tom & Jerry's <Lab> via Tarmac\n$/);
    const escaped = "Tom &amp; Jerry&#x27;s &lt;Lab&gt;";
    expect(mail?.html).not.toContain("<Lab>");
    expect(mail?.html).toMatch(new RegExp(`class="mail-header"[^>]*>.*${escaped}`, "s"));
    expect(mail?.html).toMatch(
      new RegExp(`<a href="${link}" class="mail-button"[^>]*>.*Accept the invitation`, "s"),
    );
    expect(mail?.html).toContain(`If the button does not work, open this link: <a href="${link}"`);
    expect(mail?.html).toContain(`— ${escaped} via Tarmac`);
  });

  it("invites an existing person without showing or touching their account; they join only by accepting", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Consent Co" });
    const team = await createTeam(t, organization.id);
    const project = await createProject(t, organization.id);
    const bob = await createUserWithToken(t);
    await t.database.sql.executeSql(
      "update users set two_factor_enabled = true, first_name = 'Robert' where id = $1",
      [bob.user.id],
    );
    const answer = await invite(owner.token, {
      userid: bob.user.email.toUpperCase(),
      organization: organization.id,
      role: 3,
      teams: [team.id],
      projects: [project.id],
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({
      id: expect.any(Number),
      email: bob.user.email,
      first_name: "",
      last_name: "",
      role: 3,
      organization: organization.id,
      teams: [team.id],
      projects: [project.id],
      status: "invited",
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    // An unknown address gets the very same kind of answer: nothing tells the two apart.
    const stranger = await invite(owner.token, {
      userid: uniqueEmail("nobody"),
      organization: organization.id,
      role: 3,
    });
    expect(Object.keys(stranger.json()).sort()).toEqual(Object.keys(answer.json()).sort());
    expect(stranger.json()).toMatchObject({ first_name: "", last_name: "", status: "invited" });

    // Not a member: no access, not listed; the seat is held.
    expect((await call(bob.token, "GET", `/api/usersinorgs/?org=${organization.id}`)).statusCode).toBe(404);
    const members = (await call(owner.token, "GET", `/api/usersinorgs/?org=${organization.id}`)).json();
    expect(members.results.map((row: { email: string }) => row.email)).toEqual([owner.user.email]);
    const pending = (await call(owner.token, "GET", `/api/orgs-invitations/?org=${organization.id}`)).json();
    expect(pending.count).toBe(2);
    const usage = (await call(owner.token, "GET", `/api/organization/usage/?org=${organization.id}`)).json();
    expect(usage.users_count).toBe(3);
    expect(
      (await invite(owner.token, { userid: bob.user.email, organization: organization.id, role: 2 })).json(),
    ).toEqual({ userid: ["This person has already been invited to the organization."] });

    // Bob sees the invitation and accepts it: member with what was offered.
    const mine = (await call(bob.token, "GET", "/api/invitations/")).json();
    expect(mine).toEqual([
      {
        id: answer.json().id,
        organization: { id: organization.id, title: "Consent Co", subdomain: organization.subdomain },
        role: 3,
        invited_by: `${owner.user.firstName} ${owner.user.lastName}`,
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    // Someone else cannot answer it.
    expect((await call(owner.token, "POST", `/api/invitations/${answer.json().id}/accept/`)).statusCode).toBe(
      404,
    );
    const accepted = await call(bob.token, "POST", `/api/invitations/${answer.json().id}/accept/`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      userid: bob.user.id,
      role: 3,
      organization: organization.id,
      teams: [team.id],
      projects: [project.id],
      first_name: "Robert",
    });
    expect((await call(bob.token, "GET", "/api/invitations/")).json()).toEqual([]);
    expect((await call(bob.token, "GET", `/api/usersinorgs/?org=${organization.id}`)).statusCode).toBe(200);
  });

  it("lets a person decline, and an admin re-send or cancel; another organization sees none of it", async () => {
    const { organization, owner } = await createOrganization(t);
    const other = await createOrganization(t);
    const carol = await createUserWithToken(t);
    const dave = await createUserWithToken(t);
    const toCarol = (
      await invite(owner.token, { userid: carol.user.email, organization: organization.id, role: 5 })
    ).json();
    const toDave = (
      await invite(owner.token, { userid: dave.user.email, organization: organization.id, role: 5 })
    ).json();
    expect(
      (await call(other.owner.token, "POST", `/api/orgs-invitations/${toCarol.id}/resend/`)).statusCode,
    ).toBe(404);
    expect((await call(other.owner.token, "DELETE", `/api/orgs-invitations/${toCarol.id}/`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(other.owner.token, "GET", `/api/orgs-invitations/?org=${organization.id}`)).statusCode,
    ).toBe(404);
    expect((await call(carol.token, "POST", `/api/invitations/${toCarol.id}/decline/`)).statusCode).toBe(204);
    expect((await call(carol.token, "POST", `/api/invitations/${toCarol.id}/accept/`)).statusCode).toBe(404);
    expect((await call(owner.token, "POST", `/api/orgs-invitations/${toDave.id}/resend/`)).json()).toEqual({
      detail: "The invitation has been sent again.",
    });
    await waitForMail(t, dave.user.email, 2);
    expect((await call(owner.token, "DELETE", `/api/orgs-invitations/${toDave.id}/`)).statusCode).toBe(204);
    expect((await call(dave.token, "GET", "/api/invitations/")).json()).toEqual([]);
    expect(
      (await call(owner.token, "GET", `/api/orgs-invitations/?org=${organization.id}`)).json().count,
    ).toBe(0);
  });

  it("a new person's invitation link joins that organization only; others wait for an answer", async () => {
    const first = await createOrganization(t, { title: "First" });
    const second = await createOrganization(t, { title: "Second" });
    const email = uniqueEmail("newcomer");
    for (const org of [first, second]) {
      expect(
        (await invite(org.owner.token, { userid: email, organization: org.organization.id, role: 5 }))
          .statusCode,
      ).toBe(201);
    }
    const mails = await waitForMail(t, email, 2);
    const fromFirst = mails.find((mail) => mail.subject.includes("First"));
    const code = codeFromMail(fromFirst as NonNullable<typeof fromFirst>);
    const activated = await t.app.inject({
      method: "POST",
      url: `/api/user/activate/${code}/`,
      payload: { password: strongPassword },
    });
    expect(activated.statusCode).toBe(200);
    const token = activated.json().token as string;
    expect((await call(token, "GET", `/api/usersinorgs/?org=${first.organization.id}`)).statusCode).toBe(200);
    expect((await call(token, "GET", `/api/usersinorgs/?org=${second.organization.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(token, "GET", "/api/invitations/"))
        .json()
        .map((row: { organization: { title: string } }) => row.organization.title),
    ).toEqual(["Second"]);
  });
});
