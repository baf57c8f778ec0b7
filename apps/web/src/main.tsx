import "@mantine/core/styles.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { installTagManager } from "./analytics/tag-manager.ts";
import { createQueryClient } from "./api/query-client.ts";
import { AppProviders } from "./app-providers.tsx";
import { getConfig } from "./config.ts";
import { initI18n } from "./i18n/i18n.ts";
import { createAppRouter } from "./router.tsx";

async function startApp(): Promise<void> {
  installTagManager(getConfig().gtm_container_id);
  // Rendering waits for the first translation file so no untranslated keys flash on screen.
  await initI18n();
  const root = document.getElementById("root");
  if (!root) throw new Error("index.html has no #root element");
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>,
  );
}

void startApp();
