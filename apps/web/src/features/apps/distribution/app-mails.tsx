// Extra addresses (mailing lists, stakeholders without an account) that can receive builds.
import { ActionIcon, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { addAppMail, listAppMails, removeAppMail, testerKeys } from "../../../api/testers.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";

export function AppMails({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const mails = useQuery({ queryKey: testerKeys.mails(appId), queryFn: () => listAppMails(appId) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) });
  const onError = (error: unknown) => alerts.show({ type: "error", message: describeError(error, t) });
  const add = useMutation({
    mutationFn: () => addAppMail(appId, email.trim()),
    onSuccess: () => {
      setEmail("");
      refresh();
    },
    onError,
  });
  const remove = useMutation({ mutationFn: (id: number) => removeAppMail(id), onSuccess: refresh, onError });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() && !add.isPending) add.mutate();
  };
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {t("app_mails.title")}
      </Title>
      <Text fz="sm" c="dimmed">
        {t("app_mails.hint")}
      </Text>
      <form onSubmit={submit} aria-label={t("app_mails.add")}>
        <Group align="flex-end" gap="sm">
          <TextInput
            type="email"
            label={t("app_mails.email")}
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            style={{ flex: "1 1 220px" }}
          />
          <Button type="submit" loading={add.isPending}>
            {t("app_mails.add")}
          </Button>
        </Group>
      </form>
      {(mails.data ?? []).map((mail) => (
        <Group key={mail.id} justify="space-between" wrap="nowrap" gap="xs">
          <Text fz="sm" style={{ wordBreak: "break-all" }}>
            {mail.email}
          </Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t("app_mails.remove_named", { email: mail.email })}
            onClick={() => remove.mutate(mail.id)}
          >
            <span aria-hidden="true">×</span>
          </ActionIcon>
        </Group>
      ))}
      {mails.data && mails.data.length === 0 ? <Text c="dimmed">{t("app_mails.none")}</Text> : null}
    </Stack>
  );
}
