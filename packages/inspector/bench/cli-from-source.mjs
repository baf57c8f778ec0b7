// tarmac-inspect as it ran before it was built: the TypeScript sources under the tsx loader.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
process.exitCode = await runCli(process.argv.slice(2));
