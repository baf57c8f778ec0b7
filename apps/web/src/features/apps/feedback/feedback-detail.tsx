// One report in a drawer: the screenshot (click to zoom), device and build, and its triage.
import {
  Anchor,
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  Image,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type FeedbackItem, feedbackKeys, fetchFeedbackItem, triageFeedback } from "../../../api/feedback.ts";
import { fetchMemberships, staffKeys } from "../../../api/staff.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { statusColors, tagColors } from "./feedback-labels.ts";

export function FeedbackDetail({
  id,
  canTriage,
  onClose,
}: {
  id: number;
  canTriage: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: feedbackKeys.detail(id), queryFn: () => fetchFeedbackItem(id) });
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={t("feedback.detail_title")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {query.isPending ? (
        <Text c="dimmed">{t("common.loading")}</Text>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : (
        <Report key={query.data.updated_at} item={query.data} canTriage={canTriage} />
      )}
    </Drawer>
  );
}

function Report({ item, canTriage }: { item: FeedbackItem; canTriage: boolean }) {
  const { t, i18n } = useTranslation();
  const [zoomed, setZoomed] = useState(false);
  const facts: [string, string][] = [
    [t("feedback.device"), item.device_name],
    [t("feedback.system"), item.system_version],
    [t("feedback.version"), item.build_version],
    [t("feedback.device_id"), item.device_uudid],
    [t("feedback.from"), item.email],
  ];
  return (
    <Stack gap="md" data-testid="feedback-detail">
      <Group gap="xs">
        <Badge color={tagColors[item.tag]} variant="light">
          {t(`feedback.tags.${item.tag}`)}
        </Badge>
        <Badge color={statusColors[item.status]} variant="light">
          {t(`feedback.statuses.${item.status}`)}
        </Badge>
        <Text fz="sm" c="dimmed">
          {item.app_title} · {formatDateTime(item.created_at, i18n.language)}
        </Text>
      </Group>
      <Text style={{ whiteSpace: "pre-wrap" }}>{item.description || t("feedback.no_description")}</Text>
      {item.image ? (
        <UnstyledButton
          onClick={() => setZoomed(!zoomed)}
          aria-label={zoomed ? t("feedback.zoom_out") : t("feedback.zoom_in")}
          aria-pressed={zoomed}
          style={{
            cursor: zoomed ? "zoom-out" : "zoom-in",
            overflow: "auto",
            maxHeight: zoomed ? "none" : 480,
          }}
        >
          <Image
            src={item.image}
            alt={t("feedback.screenshot_alt", { app: item.app_title })}
            w={zoomed ? item.image_width : "auto"}
            h={zoomed ? "auto" : 460}
            fit="contain"
            radius="sm"
          />
        </UnstyledButton>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {facts
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <Text fz="xs" c="dimmed">
                {label}
              </Text>
              <Text fz="sm" style={{ wordBreak: "break-all" }}>
                {value}
              </Text>
            </div>
          ))}
      </SimpleGrid>
      {item.version ? (
        <Anchor component={Link} to={`/dashboard/apps/${item.app}`} fz="sm">
          {t("feedback.build_link", {
            version: item.version.version,
            build: item.version.build_version_number,
          })}
        </Anchor>
      ) : null}
      {item.navigation_stack ? (
        <div>
          <Text fz="xs" c="dimmed">
            {t("feedback.navigation")}
          </Text>
          <Code block>{item.navigation_stack}</Code>
        </div>
      ) : null}
      {canTriage ? <Triage item={item} /> : null}
    </Stack>
  );
}

function Triage({ item }: { item: FeedbackItem }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(String(item.status));
  const [assignee, setAssignee] = useState(item.assignee ? String(item.assignee.id) : "");
  const [note, setNote] = useState(item.internal_note);
  const members = useQuery({
    queryKey: staffKeys.list(item.organization, 1, ""),
    queryFn: () => fetchMemberships(item.organization, 1, ""),
  });
  const people = members.data?.results ?? [];
  const options = [
    { value: "", label: t("feedback.unassigned") },
    ...people.map((person) => ({
      value: String(person.userid),
      label: [person.first_name, person.last_name].filter(Boolean).join(" ") || person.email,
    })),
  ];
  if (item.assignee && !people.some((person) => person.userid === item.assignee?.id)) {
    options.push({ value: String(item.assignee.id), label: item.assignee.email });
  }
  const save = useMutation({
    mutationFn: () =>
      triageFeedback(item.id, {
        status: Number(status),
        assignee: assignee ? Number(assignee) : null,
        internal_note: note,
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(feedbackKeys.detail(item.id), next);
      void queryClient.invalidateQueries({ queryKey: feedbackKeys.all });
      alerts.show({ type: "success", message: t("feedback.saved") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t("feedback.status")}
          data={[0, 1, 2, 3].map((value) => ({
            value: String(value),
            label: t(`feedback.statuses.${value}`),
          }))}
          value={status}
          onChange={(value) => setStatus(value ?? "0")}
          allowDeselect={false}
        />
        <Select
          label={t("feedback.assignee")}
          data={options}
          value={assignee}
          onChange={(value) => setAssignee(value ?? "")}
          allowDeselect={false}
          searchable
        />
      </SimpleGrid>
      <Textarea
        label={t("feedback.note")}
        description={t("feedback.note_hint")}
        rows={3}
        value={note}
        onChange={(event) => setNote(event.currentTarget.value)}
      />
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          {t("feedback.save")}
        </Button>
      </Group>
    </Stack>
  );
}
