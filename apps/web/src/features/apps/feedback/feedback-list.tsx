// A list of feedback reports with filters, sorting by date, keyboard navigation and a detail drawer.
import { Badge, Group, Paper, Select, Stack, Table, Text, TextInput, UnstyledButton } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DEFAULT_FILTERS,
  type FeedbackFilters,
  type FeedbackItem,
  type FeedbackScope,
  feedbackKeys,
  feedbackTags,
  fetchFeedback,
  openFeedbackFilter,
} from "../../../api/feedback.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageControls } from "../../../ui/page-controls.tsx";
import { useSettledSearch } from "../../../ui/use-settled-search.ts";
import { usePageCount } from "../use-page-count.ts";
import { FeedbackDetail } from "./feedback-detail.tsx";
import { statusColors, tagColors } from "./feedback-labels.ts";

export function FeedbackList({
  scope,
  showApp,
  canTriage,
  openId,
  onOpen,
}: {
  scope: FeedbackScope;
  /** Whether the caller may change status, assignee and note. */
  canTriage: boolean;
  /** The inbox lists several apps: each row names its app. */
  showApp: boolean;
  /** The report shown in the drawer (from the URL in the inbox); the list keeps it otherwise. */
  openId?: number | null;
  onOpen?: (id: number | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const [filters, setFilters] = useState<FeedbackFilters>(DEFAULT_FILTERS);
  const [page, setPage] = useState(1);
  const [focused, setFocused] = useState(0);
  const [ownOpen, setOwnOpen] = useState<number | null>(null);
  const opened = openId !== undefined ? openId : ownOpen;
  const open = onOpen ?? setOwnOpen;
  const resetPage = useCallback(() => {
    setPage(1);
    setFocused(0);
  }, []);
  // The two text filters ask the server once typing pauses.
  const device = useSettledSearch(resetPage);
  const version = useSettledSearch(resetPage);
  const settled = { ...filters, device: device.search, build_version: version.search };
  const query = useQuery({
    queryKey: feedbackKeys.list(scope, settled, page),
    queryFn: () => fetchFeedback(scope, settled, page),
    placeholderData: keepPreviousData,
  });
  const pages = usePageCount(page, query.data);
  const change = (next: Partial<FeedbackFilters>) => {
    setFilters({ ...filters, ...next });
    setPage(1);
    setFocused(0);
  };
  const rows = query.data?.results ?? [];
  // Arrow keys (or j/k) move through the reports, Enter opens the one in focus.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const step =
      event.key === "ArrowDown" || event.key === "j"
        ? 1
        : event.key === "ArrowUp" || event.key === "k"
          ? -1
          : 0;
    if (step !== 0) {
      event.preventDefault();
      const next = Math.min(rows.length - 1, Math.max(0, focused + step));
      setFocused(next);
      document.getElementById(`feedback-row-${rows[next]?.id}`)?.focus();
    }
  };
  const statusOptions = [
    { value: String(openFeedbackFilter), label: t("feedback.filter_open") },
    ...[0, 1, 2, 3].map((status) => ({ value: String(status), label: t(`feedback.statuses.${status}`) })),
    { value: "all", label: t("feedback.filter_all") },
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t("feedback.status")}
          data={statusOptions}
          value={filters.status === null ? "all" : String(filters.status)}
          onChange={(value) => change({ status: !value || value === "all" ? null : Number(value) })}
          allowDeselect={false}
          w={170}
        />
        <Select
          label={t("feedback.tag")}
          data={[
            { value: "all", label: t("feedback.filter_all") },
            ...feedbackTags.map((tag) => ({ value: tag, label: t(`feedback.tags.${tag}`) })),
          ]}
          value={filters.tag ?? "all"}
          onChange={(value) => change({ tag: !value || value === "all" ? null : value })}
          allowDeselect={false}
          w={150}
        />
        <TextInput
          label={t("feedback.version")}
          value={version.typed}
          onChange={(event) => version.setTyped(event.currentTarget.value)}
          w={130}
        />
        <TextInput
          label={t("feedback.device")}
          value={device.typed}
          onChange={(event) => device.setTyped(event.currentTarget.value)}
          w={170}
        />
        <Select
          label={t("feedback.sort")}
          data={[
            { value: "-created_at", label: t("feedback.newest_first") },
            { value: "created_at", label: t("feedback.oldest_first") },
          ]}
          value={filters.ordering}
          onChange={(value) => change({ ordering: value ?? "-created_at" })}
          allowDeselect={false}
          w={170}
        />
      </Group>
      {query.isPending ? (
        <Text c="dimmed">{t("common.loading")}</Text>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" data-testid="feedback-empty">
          {t("feedback.empty")}
        </Text>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: the keys move focus between the row buttons inside
        <div onKeyDown={onKeyDown}>
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" highlightOnHover aria-label={t("feedback.list_label")}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("feedback.report")}</Table.Th>
                    {showApp ? <Table.Th>{t("feedback.app")}</Table.Th> : null}
                    <Table.Th>{t("feedback.device")}</Table.Th>
                    <Table.Th>{t("feedback.version")}</Table.Th>
                    <Table.Th>{t("feedback.status")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((item, index) => (
                    <Row
                      key={item.id}
                      item={item}
                      showApp={showApp}
                      focusable={index === focused}
                      language={i18n.language}
                      onOpen={() => {
                        setFocused(index);
                        open(item.id);
                      }}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </div>
      )}
      <PageControls pages={pages} page={page} onChange={setPage} />
      {opened !== null ? (
        <FeedbackDetail id={opened} canTriage={canTriage} onClose={() => open(null)} />
      ) : null}
    </Stack>
  );
}

function Row({
  item,
  showApp,
  focusable,
  language,
  onOpen,
}: {
  item: FeedbackItem;
  showApp: boolean;
  focusable: boolean;
  language: string;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid="feedback-row">
      <Table.Td>
        <UnstyledButton
          id={`feedback-row-${item.id}`}
          tabIndex={focusable ? 0 : -1}
          onClick={onOpen}
          w="100%"
        >
          <Group gap={6} wrap="nowrap">
            <Badge color={tagColors[item.tag]} variant="light" size="sm">
              {t(`feedback.tags.${item.tag}`)}
            </Badge>
            <Text fz="sm" lineClamp={1}>
              {item.description || t("feedback.no_description")}
            </Text>
          </Group>
          <Text fz="xs" c="dimmed">
            {formatDateTime(item.created_at, language)}
          </Text>
        </UnstyledButton>
      </Table.Td>
      {showApp ? <Table.Td>{item.app_title}</Table.Td> : null}
      <Table.Td>
        <Text fz="sm">{item.device_name}</Text>
        <Text fz="xs" c="dimmed">
          {item.system_version}
        </Text>
      </Table.Td>
      <Table.Td>{item.build_version}</Table.Td>
      <Table.Td>
        <Badge color={statusColors[item.status]} variant="light">
          {t(`feedback.statuses.${item.status}`)}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}
