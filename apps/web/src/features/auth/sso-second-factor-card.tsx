import { Button, Stack } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError, setToken } from "../../api/client.ts";
import { safeNextPath } from "../../api/next-path.ts";
import { finishSsoSecondFactor } from "../../api/sso.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard } from "../../ui/public-layout.tsx";
import { CardFooterLink, OtpField } from "./auth-card-parts.tsx";

const FIELDS = ["otp"] as const;

function hasField(body: unknown, field: string): boolean {
  return typeof body === "object" && body !== null && field in body;
}

/**
 * The account's own second factor after the organization's provider vouched for the person:
 * the provider says who the organization thinks it is, the code that the account's owner is here.
 */
export function SsoSecondFactorCard({ ticket }: { ticket: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [otp, setOtp] = useState("");
  const formErrors = useFormErrors(FIELDS);
  const finish = useMutation({
    mutationFn: finishSsoSecondFactor,
    onSuccess: (answer) => {
      setToken(answer.token);
      navigate(safeNextPath(answer.next) ?? "/dashboard", { replace: true });
    },
    onError: (error) => {
      // The ticket lives five minutes and a few tries: past that only a new sign-in helps.
      if (error instanceof ApiError && hasField(error.body, "ticket")) {
        formErrors.showGeneral(t("custom_login.second_factor_expired"));
        return;
      }
      formErrors.showError(error);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    finish.mutate({ ticket, otp: otp.trim() });
  };

  return (
    <AuthCard title={t("custom_login.second_factor_title")} subtitle={t("login.otp_subtitle")}>
      <FormAlert state={formErrors} />
      <form onSubmit={submit}>
        <Stack gap="md">
          <OtpField value={otp} onChange={setOtp} error={formErrors.errors.fields.otp} />
          <Button type="submit" fullWidth size="md" loading={finish.isPending}>
            {t("login.otp_submit")}
          </Button>
        </Stack>
      </form>
      <CardFooterLink to="/login-custom-client" label={t("custom_login.start_again")} />
    </AuthCard>
  );
}
