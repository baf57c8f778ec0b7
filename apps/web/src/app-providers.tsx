import { MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AlertsProvider } from "./ui/alerts-provider.tsx";
import { theme } from "./ui/theme.ts";

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <AlertsProvider>{children}</AlertsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
