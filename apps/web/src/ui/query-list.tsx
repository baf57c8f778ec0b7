import { Text } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "./load-error.tsx";

/** A loaded list's four states: loading, failed (with a retry), empty (`empty` says so), or its items. */
export function QueryList<T>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Text c="dimmed">{t("common.loading")}</Text>;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Text c="dimmed">{empty}</Text>;
  return <>{children(query.data)}</>;
}
