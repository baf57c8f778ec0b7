// @ts-expect-error: the build script is plain JavaScript without type declarations.
import { buildInspectorCli } from "../../../scripts/build.mjs";

export default async function setup() {
  await buildInspectorCli();
}
