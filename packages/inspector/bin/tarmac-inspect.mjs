#!/usr/bin/env node
// Runs the TypeScript sources directly: tsx compiles them on load, so the CLI needs no build step.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
process.exitCode = await runCli(process.argv.slice(2));
