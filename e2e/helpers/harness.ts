import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import {
  freePort,
  type ServerProcess,
  startServer,
  waitForHealth,
} from "../../apps/server/test/helpers/server-process.ts";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// The flags keep Chromium off the network (this machine has none) and fit it to a container.
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export interface Harness {
  server: ServerProcess;
  baseUrl: string;
  browser: Browser;
  newContext(options?: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext>;
  /** A desktop-sized browser context that carries the session cookie of `token`. */
  signedInContext(token: string, options?: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** The real server on a free port with a fresh data directory, and a headless Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-"));
  const port = String(await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer({
    DATA_DIR: dataDir,
    PORT: port,
    PUBLIC_URL: baseUrl,
    DATABASE_URL: "",
    ...env,
  });
  await waitForHealth(server);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  return {
    server,
    baseUrl,
    browser,
    newContext: (options) => browser.newContext({ baseURL: baseUrl, ...options }),
    async signedInContext(token, options) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1280, height: 900 },
        ...options,
      });
      await context.addCookies([{ name: "tarmac_token", value: token, url: baseUrl }]);
      return context;
    },
    async close() {
      await browser.close();
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
