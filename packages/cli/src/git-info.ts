import { execFile } from "node:child_process";

/** The fields of the CI upload that describe the commit a build came from. */
export interface GitFields {
  git_branch?: string;
  git_commit?: string;
  git_tag?: string;
  git_url?: string;
  message?: string;
}

function git(args: string[], cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, timeout: 5000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    );
  });
}

/** Reads what it can; outside a repository (or without git) every field stays empty. */
export async function readGit(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<GitFields> {
  const [branch, commit, tag, url, message] = await Promise.all([
    git(["rev-parse", "--abbrev-ref", "HEAD"], cwd),
    git(["rev-parse", "HEAD"], cwd),
    git(["tag", "--points-at", "HEAD"], cwd),
    git(["remote", "get-url", "origin"], cwd),
    git(["log", "-1", "--pretty=%B"], cwd),
  ]);
  // CI checkouts are often detached (HEAD): the CI's own variable names the branch.
  const ciBranch =
    env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || env.CI_COMMIT_REF_NAME || env.BITRISE_GIT_BRANCH;
  return {
    git_branch: branch && branch !== "HEAD" ? branch : ciBranch || undefined,
    git_commit: commit,
    git_tag: tag?.split("\n")[0],
    git_url: url,
    message,
  };
}
