import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./server-process.ts";

const azuriteBin = fileURLToPath(new URL("../../../../node_modules/.bin/azurite-blob", import.meta.url));

/** Azurite's well-known development account. */
const account = "devstoreaccount1";
const accountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface AzurePeer {
  connectionString: string;
  stop(): Promise<void>;
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A real Azure Blob endpoint (azurite) on loopback, with its data in a temporary directory. */
export async function startAzurePeer(): Promise<AzurePeer> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "tarmac-azurite-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    azuriteBin,
    [
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      String(port),
      "--location",
      directory,
      "--silent",
      "--skipApiVersionCheck",
      "--loose",
      // Azurite reports usage to Microsoft unless told not to; this machine has no network.
      "--disableTelemetry",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 20_000;
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("azurite did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    connectionString: `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${accountKey};BlobEndpoint=http://127.0.0.1:${port}/${account};`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
