// Answers shaped like the applications API, for tests.
import type { ApplicationDetail, PreloadResult, Version } from "../api/applications.ts";

export function makeVersion(overrides: Partial<Version> = {}): Version {
  return {
    id: 100,
    title: "Rocket",
    app: 1,
    app_type: 0,
    version: "1.2.0",
    build_version_number: "42",
    icon: null,
    date: "2026-03-04T05:06:07Z",
    state: "ready",
    file_name: "rocket.apk",
    file_size: 5 * 1024 * 1024,
    sha256: "ab".repeat(32),
    content_type: "application/vnd.android.package-archive",
    bundle_id: "com.acme.rocket",
    min_os_version: "26",
    whats_new: "Faster launch",
    comment: "",
    ready_to_sale: true,
    git_branch: null,
    git_tag: null,
    git_commit: null,
    git_url: null,
    build_type: null,
    custom_bundle_version: null,
    uploaded_by: { id: 11, email: "ann@example.com", first_name: "Ann", last_name: "Lee" },
    download_count: 3,
    install_count: 1,
    download_url: "/files/signed/rocket.apk",
    has_universal_apk: false,
    metadata: { signing: { signed: true, schemes: ["v2", "v3"], certificates: [] } },
    ...overrides,
  };
}

export function makeApp(overrides: Partial<ApplicationDetail> = {}): ApplicationDetail {
  return {
    id: 1,
    project_title: "Rocket",
    title: "Rocket",
    new_version: "1.2.0",
    app_type: 0,
    base_app: 1,
    project_app: 9,
    environment: "production",
    slack_webhook: "",
    slack_channel: "",
    description: "",
    organization: 7,
    distribution: [],
    users: [],
    team_detail: [],
    count_versions: 1,
    current_version: makeVersion(),
    previous_versions: [],
    upload_path: "/api/applications/upload/abc/",
    ready_to_sale: true,
    feedback_enabled: true,
    autoupdate_enabled: true,
    other_platform: [],
    app_key: "key-abc",
    unique_app_id: "com.acme.rocket",
    tag_name: "rocket_android",
    icon: null,
    created_at: "2026-03-01T00:00:00Z",
    updated_at: "2026-03-04T05:06:07Z",
    ...overrides,
  };
}

export function makePreload(overrides: Partial<PreloadResult> = {}): PreloadResult {
  return {
    preload_path: "preloads/7/abc",
    version: "2.0.0",
    build_version_number: "50",
    version_exist: false,
    unique_app_id_changed: false,
    unique_app_id_new: null,
    app_type: 0,
    name: "Rocket",
    title: "Rocket",
    icon: null,
    file_name: "rocket.apk",
    file_size: 1024,
    sha256: "cd".repeat(32),
    bundle_id: "com.acme.rocket",
    min_os_version: "8.0",
    expires_at: "2026-03-05T00:00:00Z",
    warnings: [],
    ...overrides,
  };
}

export function pageOf<T>(results: T[], count = results.length) {
  return { count, next: null, previous: null, results };
}
