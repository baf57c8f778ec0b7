// Plain constants of the applications contract, free of zod so that the browser bundle can
// import them without the schema library.

export const appTypeWords = ["android", "ios", "windows", "macos"] as const;

/** Spec §8: the upload error codes, answered as 400 {error_code, detail}. */
export const uploadErrorCodes = {
  incorrectFile: 1,
  versionExists: 2,
  olderVersion: 3,
  anotherApplication: 4,
  differentType: 5,
  storageFull: 6,
  buildLimit: 7,
  aabNotConfigured: 8,
  aabConversionFailed: 9,
  customStorage: 10,
} as const;
export type UploadErrorCode = (typeof uploadErrorCodes)[keyof typeof uploadErrorCodes];

/** Spec §8 messages, shown upper-case by the client exactly as listed. */
export const uploadErrorMessages: Record<UploadErrorCode, string> = {
  1: "INCORRECT FILE",
  2: "THIS VERSION ALREADY EXISTS",
  3: "ALREADY UPLOADED A NEW VERSION THIS VERSION IS OLDER",
  4: "THIS IS ANOTHER APPLICATION",
  5: "THIS IS A DIFFERENT TYPE OF APPLICATION",
  6: "STORAGE SPACE IS FULL PLEASE UPDATE YOUR TARIFF",
  7: "YOU HAVE REACHED THE LIMIT FOR THE NUMBER OF UPLOADED BUILDS PLEASE UPDATE YOUR TARIFF",
  8: "YOU HAVE NOT CONFIGURED YOUR ANDROID APP BUNDLE CONFIGURATION",
  9: "FAILED TO CONVERT FILE AAB TO APK",
  10: "NEED TO CHECK THE CUSTOM STORAGE CONFIGURATION",
};

/**
 * What the API says in `detail` for each upload error code: a sentence people read in CI logs.
 * The spec's texts above stay the codes' keys, which the web app translates.
 */
export const uploadErrorDetails: Record<UploadErrorCode, string> = {
  1: "This file is not a build Tarmac can read.",
  2: "This version already exists.",
  3: "A newer version of this app is already uploaded; this build is older.",
  4: "This build belongs to another application.",
  5: "This build is for a different platform than the application.",
  6: "The organization's storage space is full. Free some space or raise the plan's limit.",
  7: "The organization has reached its plan's limit of builds. Delete old builds or raise the plan's limit.",
  8: "Converting Android App Bundles to APKs is not set up on this instance.",
  9: "The Android App Bundle could not be converted to an APK.",
  10: "The organization's custom storage could not be written to. Check its settings.",
};

/** Spec §9: the server's file-name limit and the start of its message (DRF wording). */
export const maxUploadFileNameLength = 100;
export const fileNameTooLongMessage = "Ensure this filename has at most 100 characters";
