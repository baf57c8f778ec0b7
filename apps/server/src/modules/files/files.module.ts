import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import { registerFileRoutes } from "./files.routes.ts";

/** Stored objects behind signed, expiring URLs (/api/files/*). */
export function createFilesModule(platform: Platform) {
  const { storage, signer } = platform;
  return { services: {}, routes: (app) => registerFileRoutes(app, { storage, signer }) } satisfies AppModule;
}
