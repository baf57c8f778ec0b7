// Which apps a webhook added from the organization's page is about: every app, or one found by title.
import { Select } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { applicationKeys, listApplications } from "../../../api/applications.ts";
import { platformKey } from "../../../ui/platform.ts";
import { useSettledSearch } from "../../../ui/use-settled-search.ts";

/** The Select's value for "every app of the organization". */
export const EVERY_APP = "all";

export function AppScopeSelect({
  orgId,
  value,
  onChange,
  error,
}: {
  orgId: number;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const search = useSettledSearch(useCallback(() => {}, []));
  // The server searches titles, so an organization with many apps finds any of them.
  const filter = { org: orgId, title: search.search, mobileType: null, page: 1 };
  const apps = useQuery({
    queryKey: applicationKeys.list(filter),
    queryFn: () => listApplications(filter),
    placeholderData: keepPreviousData,
  });
  const data = [
    { value: EVERY_APP, label: t("integrations.scope_organization") },
    ...(apps.data?.results ?? []).map((app) => ({
      value: String(app.id),
      label: `${app.project_title || app.title} · ${t(platformKey(app.app_type))} · ${app.environment}`,
    })),
  ];
  const chosenLabel = data.find((option) => option.value === value)?.label;
  return (
    <Select
      label={t("integrations.scope")}
      searchable
      data={data}
      value={value}
      onChange={(next) => onChange(next ?? EVERY_APP)}
      // The chosen app's label shows in the box too: that is no search.
      onSearchChange={(text) => search.setTyped(text === chosenLabel ? "" : text)}
      filter={({ options }) => options}
      allowDeselect={false}
      nothingFoundMessage={t("org_integrations.no_apps_found")}
      error={error}
    />
  );
}
