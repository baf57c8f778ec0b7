export { parsePlistDict } from "../../plist/index.ts";
export type { PlistDict } from "../../plist/types.ts";
export type { SigningIdentity } from "./cms-signature.ts";
export { requirementText } from "./code-signature.ts";
export { MachOError } from "./macho.ts";
export { type Profile, ResignError, readProfile } from "./profiles.ts";
export {
  checkResign,
  checkResignSource,
  type ResignOptions,
  type ResignPlan,
  type ResignResult,
  resignIpa,
} from "./resign-ipa.ts";
