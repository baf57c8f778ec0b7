import { isAdminRole, roles } from "../organization/roles.ts";

/**
 * Who may start a resumable upload in an organization: whoever may upload builds there at all
 * (administrators, and team managers for the apps they look after). Which app the bytes may
 * become is decided when the upload is finished, by the same rules as a plain upload.
 */
export function canStartResumableUpload(role: number): boolean {
  return isAdminRole(role) || role === roles.teamManager;
}

/**
 * A resumable upload is its creator's alone, and only while they still belong to its
 * organization. Anyone else, an owner of that or another organization included, is told it
 * does not exist.
 */
export function canUseResumableUpload(
  upload: { userId: number; organizationId: number },
  callerId: number,
  /** The caller's live membership in the upload's organization, if any. */
  membership: { organizationId: number } | null,
): boolean {
  return upload.userId === callerId && membership?.organizationId === upload.organizationId;
}
