import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createQueryClient } from "../api/query-client.ts";
import { connectNavigator, routes } from "../router.tsx";
import { AlertsProvider } from "../ui/alerts-provider.tsx";
import { theme } from "../ui/theme.ts";

/** Renders the real route table in memory, starting at `path`, with the app's providers. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  connectNavigator(router);
  const queryClient = createQueryClient();
  const view = render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AlertsProvider>
          <RouterProvider router={router} />
        </AlertsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, queryClient, ...view };
}

/** A fetch stand-in answering JSON with the given status. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}
