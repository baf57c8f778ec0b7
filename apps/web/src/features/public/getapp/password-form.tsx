// Unlocks a password link; the hour-long access token is kept for this tab only.
import { Button, PasswordInput, Stack } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { unlockGetapp } from "../../../api/distribution.ts";

const STORAGE_PREFIX = "getapp-access:";

export function readAccessToken(key: string): string | null {
  try {
    return sessionStorage.getItem(STORAGE_PREFIX + key);
  } catch {
    return null;
  }
}

function storeAccessToken(key: string, token: string): void {
  try {
    sessionStorage.setItem(STORAGE_PREFIX + key, token);
  } catch {
    // Without storage the token still works until the page is reloaded.
  }
}

export function PasswordForm({
  linkKey,
  onUnlocked,
}: {
  linkKey: string;
  onUnlocked: (token: string) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const unlock = useMutation({
    mutationFn: () => unlockGetapp(linkKey, password),
    onSuccess: (result) => {
      storeAccessToken(linkKey, result.access_token);
      onUnlocked(result.access_token);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password && !unlock.isPending) unlock.mutate();
  };
  let error: string | null = null;
  if (unlock.error instanceof ApiError) {
    error = unlock.error.status === 429 ? t("install.too_many_attempts") : t("install.wrong_password");
  } else if (unlock.error) error = t("errors.server");
  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <PasswordInput
          label={t("install.password")}
          description={t("install.password_hint")}
          autoComplete="off"
          required
          value={password}
          error={error}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Button type="submit" fullWidth size="md" loading={unlock.isPending}>
          {t("install.unlock")}
        </Button>
      </Stack>
    </form>
  );
}
