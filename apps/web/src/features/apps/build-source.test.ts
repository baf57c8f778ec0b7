import { describe, expect, it } from "vitest";
import { repositoryWebUrl, sourceLinks } from "./build-source.ts";

describe("build source links", () => {
  it.each([
    ["https://github.com/team/app.git", "https://github.com/team/app"],
    ["git@github.com:team/app.git", "https://github.com/team/app"],
    ["ssh://git@gitlab.com/group/sub/app.git", "https://gitlab.com/group/sub/app"],
    ["https://ci-token:secret@gitlab.example.com/team/app.git", "https://gitlab.example.com/team/app"],
    ["file:///srv/repos/app.git", null],
    ["not a url", null],
    [null, null],
  ])("turns %s into %s", (gitUrl, expected) => {
    expect(repositoryWebUrl(gitUrl)).toBe(expected);
  });

  it("links branch, first tag and commit, Bitbucket's way on bitbucket.org", () => {
    const fields = { git_branch: "feature/login", git_tag: "v1.2\nv1.2-rc", git_commit: "abc123" };
    expect(sourceLinks({ ...fields, git_url: "git@github.com:team/app.git" })).toEqual({
      repository: "https://github.com/team/app",
      branch: "https://github.com/team/app/tree/feature/login",
      tag: "https://github.com/team/app/tree/v1.2",
      commit: "https://github.com/team/app/commit/abc123",
    });
    expect(sourceLinks({ ...fields, git_url: "https://bitbucket.org/team/app.git" }).commit).toBe(
      "https://bitbucket.org/team/app/commits/abc123",
    );
    expect(sourceLinks({ ...fields, git_url: null }).commit).toBeNull();
  });
});
