/**
 * Where a build came from, as CI reported it: links into the repository's web page when its URL
 * is one a browser can open (https, or an SSH remote of a known host, turned into https).
 */
export interface SourceLinks {
  repository: string | null;
  branch: string | null;
  tag: string | null;
  commit: string | null;
}

/** "git@github.com:team/app.git" or "https://github.com/team/app.git" -> "https://github.com/team/app". */
export function repositoryWebUrl(gitUrl: string | null): string | null {
  if (!gitUrl) return null;
  const ssh = /^(?:ssh:\/\/)?git@([\w.-]+)[:/](.+?)(?:\.git)?\/?$/.exec(gitUrl.trim());
  const candidate = ssh ? `https://${ssh[1]}/${ssh[2]}` : gitUrl.trim().replace(/\.git\/?$/, "");
  try {
    const url = new URL(candidate);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return null;
  }
}

export function sourceLinks(version: {
  git_url: string | null;
  git_branch: string | null;
  git_tag: string | null;
  git_commit: string | null;
}): SourceLinks {
  const base = repositoryWebUrl(version.git_url);
  if (!base) return { repository: null, branch: null, tag: null, commit: null };
  const bitbucket = new URL(base).hostname === "bitbucket.org";
  // Slashes stay: branch names like feature/login are paths on every host.
  const path = (name: string) => encodeURIComponent(name).replaceAll("%2F", "/");
  const ref = (name: string | null) => (name ? `${base}/${bitbucket ? "src" : "tree"}/${path(name)}` : null);
  const commit = version.git_commit
    ? `${base}/${bitbucket ? "commits" : "commit"}/${encodeURIComponent(version.git_commit)}`
    : null;
  // Several tags may point at one commit (fastlane sends them one per line): link the first.
  const firstTag = version.git_tag?.split(/\s+/)[0] ?? null;
  return { repository: base, branch: ref(version.git_branch), tag: ref(firstTag), commit };
}
