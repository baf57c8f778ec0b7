// Creates an install link or changes one's name and access: public, password or members; expiry;
// limit.
import { Group, Modal, NumberInput, PasswordInput, Radio, Select, Stack, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type DistributionAccess, minLinkPasswordLength } from "@tarmac/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Version } from "../../../api/applications.ts";
import {
  createDistribution,
  type DistributionRecord,
  distributionKeys,
  updateDistribution,
} from "../../../api/distribution.ts";
import { readFormErrors } from "../../../api/form-errors.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { FormDialogActions } from "../../../ui/forms/form-dialog-actions.tsx";

interface LinkDialogProps {
  appId: number;
  /** null creates a link. */
  link: DistributionRecord | null;
  versions: Version[];
  onClose: () => void;
}

/** Fields whose server messages show under the field itself. */
const FIELDS = ["name", "password", "expires_at", "install_limit"] as const;

/** The date part of an ISO time for <input type="date">. */
function dateInputValue(iso: string | null): string {
  return iso ? iso.slice(0, 10) : "";
}

/** A link chosen to end on a day stays valid through the end of that day (UTC). */
export function expiryFromDate(day: string): string | null {
  return day ? `${day}T23:59:59Z` : null;
}

export function LinkDialog({ appId, link, versions, onClose }: LinkDialogProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [versionId, setVersionId] = useState<string>(link?.version ? String(link.version) : "");
  const [access, setAccess] = useState<DistributionAccess>(link?.access ?? "public");
  const [password, setPassword] = useState("");
  const [expires, setExpires] = useState(dateInputValue(link?.expires_at ?? null));
  const [limit, setLimit] = useState<number>(link?.install_limit ?? 0);
  const [name, setName] = useState(link?.name ?? "");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const common = {
        name: name.trim() || null,
        access,
        expires_at: expiryFromDate(expires),
        install_limit: limit,
        ...(access === "password" && password ? { password } : {}),
      };
      return link
        ? updateDistribution(link.id, common)
        : createDistribution({ app: appId, version: versionId ? Number(versionId) : null, ...common });
    },
    onSuccess: () => {
      alerts.show({ type: "success", message: t("distribution.link_saved") });
      void queryClient.invalidateQueries({ queryKey: distributionKeys.links(appId) });
      onClose();
    },
    onError: (error) => {
      const { fields, general } = readFormErrors(error, FIELDS, t("SERVER ERROR"));
      setFieldErrors(fields);
      if (general || Object.keys(fields).length === 0) {
        alerts.show({ type: "error", message: general ?? describeError(error, t) });
      }
    },
  });
  const needsPassword = access === "password" && !link?.has_password;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!save.isPending) save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={link ? t("distribution.edit_link") : t("distribution.new_link")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            label={t("distribution.name_label")}
            description={t("distribution.name_hint")}
            maxLength={100}
            value={name}
            error={fieldErrors.name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          {link ? null : (
            <Select
              label={t("distribution.link_target")}
              data={[
                { value: "", label: t("distribution.newest_build") },
                ...versions.map((version) => ({
                  value: String(version.id),
                  label: t("apps.version_build", {
                    version: version.version,
                    build: version.build_version_number,
                  }),
                })),
              ]}
              value={versionId}
              onChange={(value) => setVersionId(value ?? "")}
              allowDeselect={false}
            />
          )}
          {/* Radios, not a segmented control: the choices' texts are long and must not be cut off. */}
          <Radio.Group
            label={t("distribution.access_label")}
            value={access}
            onChange={(value) => setAccess(value as DistributionAccess)}
          >
            <Group gap="md" mt={4}>
              {(["public", "password", "members"] as const).map((value) => (
                <Radio key={value} value={value} label={t(`distribution.access.${value}`)} />
              ))}
            </Group>
          </Radio.Group>
          {access === "password" ? (
            <PasswordInput
              label={t("distribution.password")}
              description={link?.has_password ? t("distribution.password_keep") : undefined}
              required={needsPassword}
              minLength={minLinkPasswordLength}
              autoComplete="new-password"
              value={password}
              error={fieldErrors.password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
          ) : null}
          <TextInput
            type="date"
            label={t("distribution.expires_label")}
            description={t("distribution.expires_hint")}
            value={expires}
            error={fieldErrors.expires_at}
            onChange={(event) => setExpires(event.currentTarget.value)}
          />
          <NumberInput
            label={t("distribution.limit_label")}
            description={t("distribution.limit_hint")}
            error={fieldErrors.install_limit}
            min={0}
            allowDecimal={false}
            value={limit}
            onChange={(value) => setLimit(typeof value === "number" ? value : 0)}
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
