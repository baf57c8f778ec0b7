// Pieces the sign-in cards share.
import { Anchor, Group, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** A link under a sign-in card's form, centred: another way to sign in, or starting again. */
export function CardFooterLink({ to, label }: { to: string; label: string }) {
  return (
    <Group justify="center">
      <Anchor component={Link} to={to} fz="sm">
        {label}
      </Anchor>
    </Group>
  );
}

/** The account's second factor: an authenticator code or a recovery code (browsers may fill it). */
export function OtpField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t("login.otp_label")}
      description={t("login.otp_description")}
      name="otp"
      autoComplete="one-time-code"
      autoFocus
      required
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}
