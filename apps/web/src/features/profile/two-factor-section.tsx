import {
  Badge,
  Button,
  Code,
  Group,
  Image,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  confirmTwoFactor,
  disableTwoFactor,
  fetchTwoFactorKey,
  regenerateRecoveryCodes,
  type TwoFactorKey,
} from "../../api/account.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { Alert } from "../../ui/alert.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { RecoveryCodes } from "./recovery-codes.tsx";

export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const { refreshProfile } = useDashboard();
  const [codes, setCodes] = useState<string[] | null>(null);

  // Codes stay on screen until the user confirms, even after the profile says 2FA is on.
  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          void refreshProfile();
        }}
      />
    );
  }
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text fz="sm">{t("twofa.status")}</Text>
        <Badge color={enabled ? "green" : "gray"} variant="light">
          {enabled ? t("twofa.on") : t("twofa.off")}
        </Badge>
      </Group>
      {enabled ? <EnabledActions onCodes={setCodes} /> : <SetUp onCodes={setCodes} />}
    </Stack>
  );
}

function SetUp({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState<TwoFactorKey | null>(null);
  const [token, setToken] = useState("");
  const formErrors = useFormErrors(["token"]);
  const start = useMutation({
    mutationFn: fetchTwoFactorKey,
    onSuccess: setKey,
    onError: formErrors.showError,
  });
  const confirm = useMutation({
    mutationFn: () => confirmTwoFactor(token.trim()),
    onSuccess: (reply) => onCodes(reply.recovery_codes),
    onError: formErrors.showError,
  });

  if (!key) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text fz="sm" c="dimmed">
          {t("twofa.intro")}
        </Text>
        <FormAlert state={formErrors} />
        <Button loading={start.isPending} onClick={() => start.mutate()}>
          {t("twofa.enable")}
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    confirm.mutate();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm" maw={420}>
        <Text fz="sm">{t("twofa.scan")}</Text>
        <Image src={key.qr_code} alt={t("twofa.qr_alt")} w={180} h={180} fit="contain" />
        <Text fz="sm">
          {t("twofa.secret")} <Code data-testid="twofa-secret">{key.secret}</Code>
        </Text>
        <FormAlert state={formErrors} />
        <TextInput
          label={t("twofa.code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={token}
          onChange={(event) => setToken(event.currentTarget.value)}
          error={formErrors.errors.fields.token}
        />
        <Button type="submit" loading={confirm.isPending} style={{ alignSelf: "flex-start" }}>
          {t("twofa.confirm")}
        </Button>
      </Stack>
    </form>
  );
}

function EnabledActions({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const { refreshProfile } = useDashboard();
  const [proofKind, setProofKind] = useState<"token" | "password">("token");
  const [proof, setProof] = useState("");
  const formErrors = useFormErrors(["token", "password"]);
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: (reply) => onCodes(reply.recovery_codes),
  });
  const disable = useMutation({
    mutationFn: () => disableTwoFactor(proofKind === "token" ? { token: proof.trim() } : { password: proof }),
    onSuccess: () => void refreshProfile(),
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    disable.mutate();
  };

  return (
    <Stack gap="lg">
      <Stack gap="xs" align="flex-start">
        <Text fz="sm" c="dimmed">
          {t("twofa.regenerate_hint")}
        </Text>
        {regenerate.isError ? (
          <Alert type="error" message={describeError(regenerate.error, t)} timeout={0} />
        ) : null}
        <Button variant="light" loading={regenerate.isPending} onClick={() => regenerate.mutate()}>
          {t("twofa.regenerate")}
        </Button>
      </Stack>
      <form onSubmit={submit}>
        <Stack gap="sm" maw={420}>
          <Text fz="sm" fw={600}>
            {t("twofa.disable_title")}
          </Text>
          <SegmentedControl
            value={proofKind}
            onChange={(value) => {
              setProofKind(value === "password" ? "password" : "token");
              setProof("");
            }}
            data={[
              { value: "token", label: t("twofa.with_code") },
              { value: "password", label: t("twofa.with_password") },
            ]}
          />
          <FormAlert state={formErrors} />
          {proofKind === "token" ? (
            <TextInput
              label={t("twofa.code")}
              autoComplete="one-time-code"
              required
              value={proof}
              onChange={(event) => setProof(event.currentTarget.value)}
              error={formErrors.errors.fields.token}
            />
          ) : (
            <PasswordInput
              label={t("fields.password")}
              autoComplete="current-password"
              required
              value={proof}
              onChange={(event) => setProof(event.currentTarget.value)}
              error={formErrors.errors.fields.password}
              visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
            />
          )}
          <Button
            type="submit"
            color="red"
            variant="light"
            loading={disable.isPending}
            style={{ alignSelf: "flex-start" }}
          >
            {t("twofa.disable")}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
