// Start-up of `tarmac --version` as a whole process, beside `node -e 0` timed in the same run:
// the difference is what the command itself costs. Needs the built dist/tarmac.mjs.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const runs = Number(process.argv[2] ?? 20);
const bin = fileURLToPath(new URL("../bin/tarmac.mjs", import.meta.url));

function time(args) {
  const samples = [];
  spawnSync(process.execPath, args); // warms the file cache
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args);
    if (result.status !== 0) throw new Error(`${args.join(" ")} failed: ${result.stderr}`);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)], mean: samples.reduce((a, b) => a + b, 0) / runs };
}

const node = time(["-e", "0"]);
const tarmac = time([bin, "--version"]);
const ms = (value) => `${value.toFixed(1)} ms`;
console.log(`node -e 0         median ${ms(node.median)}  mean ${ms(node.mean)}`);
console.log(`tarmac --version  median ${ms(tarmac.median)}  mean ${ms(tarmac.mean)}`);
console.log(
  `ratio (median)    ${(tarmac.median / node.median).toFixed(2)}x, ${ms(tarmac.median - node.median)} over node`,
);
