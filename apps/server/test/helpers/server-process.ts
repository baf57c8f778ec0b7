import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const serverDir = fileURLToPath(new URL("../..", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the built entry point (`dist/main.js`) as `npm start` does, on loopback. */
export function startServer(env: Record<string, string>): ServerProcess {
  const port = env.PORT ?? "0";
  // One process, as `npm start` runs it: plain node on the bundle (the test setup builds it).
  const child = spawn(process.execPath, ["dist/main.js"], {
    cwd: serverDir,
    // Several servers run at once: none listens for metrics unless a test asks (METRICS_PORT).
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      METRICS_PORT: "0",
      ...env,
      PORT: port,
      INIT_CWD: serverDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** Waits until the server is ready (while it starts, liveness already answers 200 and readiness 503). */
export async function waitForHealth(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      const response = await fetch(`${server.url}/api/health/ready/`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not become healthy:\n${server.output()}`);
}

/** Waits for a log line; for processes that serve no HTTP (ROLES=worker). */
export async function waitForOutput(server: ServerProcess, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${text}" in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The bootstrap command of the README, run while no server holds the data directory. */
export function issueAdminToken(env: Record<string, string>, email: string): string {
  const result = spawnSync(process.execPath, ["dist/issue-admin-token.js", email], {
    cwd: serverDir,
    env: { ...process.env, ...env, INIT_CWD: serverDir },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`issue-admin-token failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** The JSON body of a response; its status and text when it is not JSON. */
export async function readJson(response: Response) {
  const body = await response.text();
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${response.status}: ${body}`);
  }
}
