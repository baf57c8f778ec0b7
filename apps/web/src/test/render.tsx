import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, vi } from "vitest";
import { createQueryClient } from "../api/query-client.ts";
import { setToken } from "../api/token.ts";
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

export interface ApiCall {
  method: string;
  url: string;
  body: unknown;
}

export type ApiReply = { status: number; body: unknown };
type ReplySource = ApiReply | ((call: ApiCall) => ApiReply);

function readBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return null;
  if (body instanceof FormData) return body;
  return JSON.parse(String(body));
}

/**
 * Stubs fetch with replies keyed by "METHOD url" (the url with its query string). Unknown
 * requests answer 404; every request is recorded in order.
 */
export function stubApi(replies: Record<string, ReplySource>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? "GET", url, body: readBody(init.body) };
      calls.push(call);
      const source = replies[`${call.method} ${url}`];
      const reply = typeof source === "function" ? source(call) : source;
      return jsonResponse(reply?.status ?? 404, reply ? reply.body : { detail: "Not found." });
    }),
  );
  return calls;
}

/** Renders one component with the app's providers but no router table of its own. */
export function renderWithProviders(node: ReactNode, path = "/") {
  const queryClient = createQueryClient();
  const router = createMemoryRouter([{ path: "*", element: node }], { initialEntries: [path] });
  const view = render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AlertsProvider>
          <RouterProvider router={router} />
        </AlertsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { queryClient, router, ...view };
}

/** Pages behind the dashboard guard: a stored token, and the API client's expected error logs kept quiet. */
export function useSignedInTestSession(): void {
  beforeEach(() => {
    setToken("tok");
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
}
