import { Button, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { createOrganization, type Organization } from "../../api/organizations.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const ORG_FIELDS = ["title", "subdomain"] as const;
const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/** A subdomain suggestion from the title: lower-case letters, digits and single dashes. */
export function suggestSubdomain(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
}

export function isValidSubdomain(value: string): boolean {
  return value.length >= 3 && value.length <= 40 && SUBDOMAIN_PATTERN.test(value);
}

export function CreateOrganizationForm({ onCreated }: { onCreated?: (org: Organization) => void }) {
  const { t } = useTranslation();
  const { refreshProfile, selectOrg } = useDashboard();
  const [title, setTitle] = useState("");
  const [subdomain, setSubdomain] = useState("");
  const [subdomainTouched, setSubdomainTouched] = useState(false);
  const formErrors = useFormErrors(ORG_FIELDS);
  const { errors } = formErrors;
  const [localError, setLocalError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: createOrganization,
    onSuccess: async (org) => {
      selectOrg(org.id);
      await refreshProfile();
      onCreated?.(org);
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    const cleanSubdomain = subdomain.trim().toLowerCase();
    if (!isValidSubdomain(cleanSubdomain)) {
      setLocalError(t("org.subdomain_invalid"));
      return;
    }
    setLocalError(null);
    create.mutate({ title: title.trim(), subdomain: cleanSubdomain });
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md" maw={480}>
        <FormAlert state={formErrors} />
        <TextInput
          label={t("org.title_label")}
          name="title"
          required
          value={title}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setTitle(value);
            if (!subdomainTouched) setSubdomain(suggestSubdomain(value));
          }}
          error={errors.fields.title}
        />
        <TextInput
          label={t("org.subdomain_label")}
          description={t("org.subdomain_hint")}
          name="subdomain"
          required
          value={subdomain}
          onChange={(event) => {
            setSubdomainTouched(true);
            setSubdomain(event.currentTarget.value);
          }}
          error={localError ?? errors.fields.subdomain}
        />
        <Button type="submit" loading={create.isPending} style={{ alignSelf: "flex-start" }}>
          {t("org.create_submit")}
        </Button>
      </Stack>
    </form>
  );
}
