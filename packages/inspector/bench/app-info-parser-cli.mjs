// app-info-parser as a command, the way a CI script would call it: parse the file, print JSON.
import { createRequire } from "node:module";

const AppInfoParser = createRequire(import.meta.url)("app-info-parser");
const info = await new AppInfoParser(process.argv[2]).parse();
process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
