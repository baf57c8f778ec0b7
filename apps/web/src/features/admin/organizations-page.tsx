// Administration → Organizations: every organization of the instance with its owner, plan and
// usage against its limits; choosing one opens its plan, limits and activity.
import { Badge, Button, Group, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ADMIN_ORGANIZATIONS_PAGE_SIZE,
  type AdminOrganization,
  adminKeys,
  fetchAdminOrganizations,
  LIMIT_KEYS,
  type LimitKey,
} from "../../api/admin.ts";
import { formatDate } from "../../ui/format/date.ts";
import { formatStorage } from "../../ui/format/size.ts";
import { ListTable } from "../../ui/list-table.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { useSettledSearch } from "../../ui/use-settled-search.ts";
import { LIMIT_NAME, USAGE_OF_LIMIT } from "./limits.ts";
import { OrganizationDialog } from "./organization-dialog.tsx";

export function OrganizationsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("admin.title")} description={t("admin.description")}>
      <ProfileGate>
        {(profile) =>
          profile.is_instance_admin ? <OrganizationsList /> : <Text c="dimmed">{t("admin.not_admin")}</Text>
        }
      </ProfileGate>
    </PageFrame>
  );
}

function OrganizationsList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const resetPage = useCallback(() => setPage(1), []);
  const { typed, setTyped, search } = useSettledSearch(resetPage);
  const [selected, setSelected] = useState<AdminOrganization | null>(null);

  const query = useQuery({
    queryKey: adminKeys.list(page, search),
    queryFn: () => fetchAdminOrganizations(page, search),
  });
  const count = query.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / ADMIN_ORGANIZATIONS_PAGE_SIZE));

  return (
    <Stack gap="md">
      <TextInput
        type="search"
        aria-label={t("admin.search")}
        placeholder={t("admin.search")}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        w={{ base: "100%", xs: 380 }}
      />
      {query.data ? (
        <Text fz="sm" c="dimmed" role="status">
          {t("admin.count", { count })}
        </Text>
      ) : null}
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? (
        <Text c="dimmed">{search ? t("admin.empty_search") : t("admin.empty")}</Text>
      ) : null}
      {query.data && query.data.results.length > 0 ? (
        <ListTable
          minWidth={860}
          headings={[
            t("admin.organization"),
            t("admin.owner"),
            t("admin.plan"),
            t("admin.usage"),
            t("admin.created"),
            <VisuallyHidden key="actions">{t("admin.actions")}</VisuallyHidden>,
          ]}
        >
          {query.data.results.map((organization) => (
            <OrganizationRow
              key={organization.id}
              organization={organization}
              onManage={() => setSelected(organization)}
            />
          ))}
        </ListTable>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      <OrganizationDialog organization={selected} onSaved={setSelected} onClose={() => setSelected(null)} />
    </Stack>
  );
}

/** "2 of 3 projects", "1.2 GB of 2 GB storage", or the count alone where there is no limit. */
export function usageText(organization: AdminOrganization, key: LimitKey, language: string, t: TFunction) {
  const used = organization.usage[USAGE_OF_LIMIT[key]];
  const limit = organization.limits[key];
  const name = LIMIT_NAME[key];
  if (key === "space_limit") {
    const values = { used: formatStorage(used, language), limit: formatStorage(limit, language) };
    return limit ? t("admin.usage_of.space", values) : t("admin.usage_unlimited.space", values);
  }
  return limit
    ? t(`admin.usage_of.${name}`, { count: limit, used })
    : t(`admin.usage_unlimited.${name}`, { count: used });
}

function OrganizationRow({
  organization,
  onManage,
}: {
  organization: AdminOrganization;
  onManage: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const ownLimits = Object.keys(organization.overrides).length > 0;
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} fz="sm">
          {organization.title}
        </Text>
        <Text fz="xs" c="dimmed">
          {organization.subdomain}
        </Text>
      </Table.Td>
      <Table.Td>
        {organization.owner ? (
          <>
            {organization.owner.name ? <Text fz="sm">{organization.owner.name}</Text> : null}
            <Text
              fz={organization.owner.name ? "xs" : "sm"}
              c={organization.owner.name ? "dimmed" : undefined}
            >
              {organization.owner.email}
            </Text>
          </>
        ) : (
          <Text fz="sm" c="dimmed">
            {t("admin.no_owner")}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Badge variant="light">{organization.plan.title}</Badge>
          {ownLimits ? (
            <Badge variant="outline" color="grape">
              {t("admin.own_limits")}
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          {LIMIT_KEYS.map((key) => {
            const limit = organization.limits[key];
            const full = limit > 0 && organization.usage[USAGE_OF_LIMIT[key]] >= limit;
            return (
              <Text key={key} fz="xs" c={full ? "red.8" : undefined} fw={full ? 600 : undefined}>
                {usageText(organization, key, language, t)}
              </Text>
            );
          })}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text fz="sm">{formatDate(organization.created_at, language)}</Text>
      </Table.Td>
      <Table.Td>
        <Button
          variant="light"
          size="xs"
          onClick={onManage}
          aria-label={t("admin.manage_named", { title: organization.title })}
        >
          {t("admin.manage")}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
