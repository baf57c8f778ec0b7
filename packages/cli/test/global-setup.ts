// @ts-expect-error: the build script is plain JavaScript without type declarations.
import { buildCli, buildServer } from "../../../scripts/build.mjs";

/** The tests run the built server and the built command, as users do: build both from the sources. */
export default async function setup() {
  await Promise.all([buildServer(), buildCli()]);
}
