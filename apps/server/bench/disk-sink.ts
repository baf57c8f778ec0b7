/**
 * The reference receiver of the upload benchmark, run as its own process like the server: a
 * minimal Node HTTP server writing each request body to a file in DIR and fsyncing it, as the
 * storage driver does, then answering. Prints its port.
 */
import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import http from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";

const dir = process.argv[2] ?? ".";
let sequence = 0;
const server = http.createServer(async (request, response) => {
  sequence += 1;
  const path = join(dir, `sink-${sequence}.bin`);
  await pipeline(request, createWriteStream(path));
  const handle = await open(path, "r");
  await handle.sync();
  await handle.close();
  // Files are kept, as the server keeps its preloads; the benchmark removes DIR at the end.
  response.end("ok");
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
