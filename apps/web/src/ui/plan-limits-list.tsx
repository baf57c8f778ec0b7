import { List, type ListProps } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Tariff } from "../api/plans.ts";
import { formatStorage } from "./format/size.ts";

/** What a plan allows: storage, builds, projects and users (0 = unlimited). */
export function PlanLimitsList({ plan, ...props }: { plan: Tariff } & Omit<ListProps, "children">) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const count = (value: number) => new Intl.NumberFormat(language).format(value);
  const limit = (value: number, format: (value: number) => string) =>
    value ? format(value) : t("pricing.unlimited");
  return (
    <List fz="sm" {...props}>
      <List.Item>
        {t("pricing.storage", { value: limit(plan.space_limit, (mb) => formatStorage(mb, language)) })}
      </List.Item>
      <List.Item>{t("pricing.builds", { value: limit(plan.build_limit, count) })}</List.Item>
      <List.Item>{t("pricing.projects", { value: limit(plan.projects_limit, count) })}</List.Item>
      <List.Item>{t("pricing.users", { value: limit(plan.user_limit, count) })}</List.Item>
    </List>
  );
}
