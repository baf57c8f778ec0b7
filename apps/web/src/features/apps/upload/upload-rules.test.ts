import { uploadErrorMessages } from "@tarmac/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client.ts";
import { makeApp, makePreload } from "../../../test/application-fixtures.ts";
import { buildCreateInput, canAdd, draftFromPreload, EMPTY_DRAFT } from "./draft.ts";
import { checkFiles, describeUploadFailure, exceedsSpace, messageOfCode } from "./upload-rules.ts";

const MB = 1024 * 1024;

function fileOf(name: string, bytes = 10): File {
  const file = new File(["x"], name);
  Object.defineProperty(file, "size", { value: bytes });
  return file;
}

const context = { organization: 7, usage: { space_used: 10, space_limit: 100 } };

describe("checkFiles", () => {
  it("refuses several files before anything else", () => {
    expect(checkFiles([fileOf("a.apk"), fileOf("b.exe")], { ...context, organization: null })).toEqual({
      key: "CANNOT LOAD MULTIPLE FILES PLEASE SELECT ONE FILE",
    });
  });

  it("stops at the build limit before uploading, builds waiting to be added included", () => {
    const usage = { space_used: 0, space_limit: 0, builds_count: 8, build_limit: 10, pending_uploads: 2 };
    expect(checkFiles([fileOf("a.apk")], { ...context, usage })).toEqual({
      key: "YOU HAVE REACHED THE LIMIT FOR THE NUMBER OF UPLOADED BUILDS PLEASE UPDATE YOUR TARIFF",
      plan: true,
    });
    expect(checkFiles([fileOf("a.apk")], { ...context, usage: { ...usage, pending_uploads: 1 } })).toBeNull();
    expect(checkFiles([fileOf("a.apk")], { ...context, usage: { ...usage, build_limit: 0 } })).toBeNull();
  });

  it("needs an organization", () => {
    expect(checkFiles([fileOf("a.apk")], { ...context, organization: null })?.key).toBe(
      "PLEASE SELECT ONE OF THE ORGANIZATION",
    );
  });

  it("lists the accepted extensions for an unsupported file", () => {
    expect(checkFiles([fileOf("setup.exe")], context)).toEqual({
      key: "upload.unsupported_type",
      values: {
        types:
          ".apk, .aab, .ipa, .msix, .msixbundle, .msixupload, .zip, .msi, .appx, .appxbundle, .appxupload, .dmg, .pkg",
      },
    });
  });

  it.each(["a.apk", "a.AAB", "a.ipa", "a.msixbundle", "a.zip", "a.dmg", "a.pkg", "a.appxupload"])(
    "accepts %s",
    (name) => expect(checkFiles([fileOf(name)], context)).toBeNull(),
  );

  it("blocks a file that would reach a non-zero space limit", () => {
    expect(checkFiles([fileOf("a.apk", 90 * MB)], context)?.key).toBe(uploadErrorMessages[6]);
    expect(checkFiles([fileOf("a.apk", 89 * MB)], context)).toBeNull();
    expect(exceedsSpace({ space_used: 5000, space_limit: 0 }, 10 * MB)).toBe(false);
    expect(exceedsSpace(null, 10 * MB)).toBe(false);
  });
});

describe("describeUploadFailure", () => {
  it.each(Object.entries(uploadErrorMessages))("maps error_code %s to its spec message", (code, message) => {
    const error = new ApiError(400, { error_code: Number(code), detail: "x" }, "x");
    expect(describeUploadFailure(error)).toEqual({ key: message, plan: code === "6" || code === "7" });
    expect(messageOfCode(Number(code))).toEqual({ key: message });
  });

  it("maps the server's file-name message", () => {
    const body = { file: ["Ensure this filename has at most 100 characters (it has 140)."] };
    expect(describeUploadFailure(new ApiError(400, body, "x"))?.key).toBe(
      "ENSURE THIS FILENAME HAS AT MOST 100 CHARACTERS",
    );
  });

  it("shows nothing for 401 (the client went to /login) or an abort", () => {
    expect(describeUploadFailure(new ApiError(401, null, "x"))).toBeNull();
    expect(describeUploadFailure(new DOMException("aborted", "AbortError"))).toBeNull();
  });

  it("shows the server's own words whenever it gave some, with the plan page for limits", () => {
    const limit = { error_code: "projects_limit_reached", detail: "The plan's project limit is reached." };
    expect(describeUploadFailure(new ApiError(400, limit, "x"))).toEqual({
      key: "errors.server_said",
      values: { message: "The plan's project limit is reached." },
      plan: true,
    });
    expect(
      describeUploadFailure(new ApiError(400, { project_title: ["This field is required."] }, "x")),
    ).toEqual({
      key: "errors.server_said",
      values: { message: "project_title: This field is required." },
      plan: false,
    });
    expect(describeUploadFailure(new ApiError(403, { detail: "Not allowed." }, "x"))?.values).toEqual({
      message: "Not allowed.",
    });
  });

  it("answers 'Application Error' when the server said nothing readable", () => {
    expect(describeUploadFailure(new ApiError(500, null, "x"))?.key).toBe("errors.application");
    expect(describeUploadFailure(new ApiError(400, {}, "x"))?.key).toBe("errors.application");
    expect(describeUploadFailure(new Error("boom"))?.key).toBe("errors.application");
    expect(messageOfCode(null).key).toBe("errors.application");
  });
});

describe("the draft", () => {
  it("names a new app after the build and keeps an existing app's names", () => {
    const preload = makePreload({ name: "Rocket Pro" });
    expect(draftFromPreload(preload, null)).toMatchObject({
      project_title: "Rocket Pro",
      title: "Rocket Pro",
      new_version: "2.0.0",
      build_version_number: "50",
      ready_to_sale: true,
    });
    expect(draftFromPreload(preload, makeApp({ project_title: "Old", environment: "qa" }))).toMatchObject({
      project_title: "Old",
      environment: "qa",
    });
  });

  it("needs a preload path and, for a new app, a project title", () => {
    const draft = { ...EMPTY_DRAFT, project_title: "  " };
    const preload = { preload_path: "p", version_exist: false, unique_app_id_changed: false };
    expect(canAdd(draft, preload, false)).toBe(false);
    expect(canAdd(draft, preload, true)).toBe(true);
    expect(canAdd({ ...draft, project_title: "A" }, { ...preload, preload_path: "" }, false)).toBe(false);
  });

  it("refuses an existing version and waits for consent to another bundle id, as the server will", () => {
    const preload = { preload_path: "p", version_exist: false, unique_app_id_changed: false };
    expect(canAdd(EMPTY_DRAFT, { ...preload, version_exist: true }, true)).toBe(false);
    expect(canAdd(EMPTY_DRAFT, { ...preload, unique_app_id_changed: true }, true)).toBe(false);
    expect(
      canAdd(
        { ...EMPTY_DRAFT, unique_app_id_changed: true },
        { ...preload, unique_app_id_changed: true },
        true,
      ),
    ).toBe(true);
  });

  it("trims titles and sends the bundle-id confirmation only when asked", () => {
    const draft = { ...EMPTY_DRAFT, project_title: "  Rocket ", title: " R ", unique_app_id_changed: true };
    const plain = buildCreateInput(draft, makePreload(), 7, 0);
    expect(plain).toMatchObject({
      project_title: "Rocket",
      title: "R",
      organization: 7,
      preload_path: "preloads/7/abc",
    });
    expect(plain.unique_app_id_changed).toBeUndefined();
    const changed = buildCreateInput(
      draft,
      makePreload({ unique_app_id_changed: true, unique_app_id_new: "com.b" }),
      7,
      0,
    );
    expect(changed).toMatchObject({ unique_app_id_changed: true, unique_app_id_new: "com.b" });
  });
});
