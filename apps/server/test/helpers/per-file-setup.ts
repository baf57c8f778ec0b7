import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dirs.ts";

// Runs before every test file: test files share their worker's modules (isolate: false), so a
// hook registered when a helper is first imported would follow the first file only.
afterAll(() => removeTempDirs());
