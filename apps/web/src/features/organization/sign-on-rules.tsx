// What every sign-on kind shares: who new members become, which addresses it is for, and whether
// it is on and required; and the values to copy into the identity provider.
import { Button, Checkbox, Code, Group, Select, TagsInput, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useCopyWithAlert } from "../../ui/use-copy-with-alert.ts";

const ROLES = [2, 3, 4, 5] as const;

export interface SignOnRuleValues {
  default_role: string;
  allowed_domains: string[];
  enabled: boolean;
  require_sso: boolean;
}

export function SignOnRules({
  value,
  onChange,
  errors,
}: {
  value: SignOnRuleValues;
  onChange: (change: Partial<SignOnRuleValues>) => void;
  errors: Record<string, string | undefined>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Select
        label={t("sign_on.default_role")}
        data={ROLES.map((role) => ({ value: String(role), label: t(`roles.r${role}`) }))}
        value={value.default_role}
        onChange={(role) => onChange({ default_role: role ?? "3" })}
        allowDeselect={false}
        error={errors.default_role}
        maw={320}
      />
      <TagsInput
        label={t("sign_on.allowed_domains")}
        description={t("sign_on.allowed_domains_hint")}
        value={value.allowed_domains}
        onChange={(domains) => onChange({ allowed_domains: domains })}
        error={errors.allowed_domains}
      />
      <Checkbox
        label={t("sign_on.enabled")}
        checked={value.enabled}
        onChange={(event) => onChange({ enabled: event.currentTarget.checked })}
      />
      <Checkbox
        label={t("sign_on.require_sso")}
        description={t("sign_on.require_sso_hint")}
        checked={value.require_sso}
        onChange={(event) => onChange({ require_sso: event.currentTarget.checked })}
      />
    </>
  );
}

/** A value to paste into the identity provider, with a Copy button. */
export function CopyLine({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation();
  const copy = useCopyWithAlert();
  return (
    <div>
      <Text fz="sm">{label}</Text>
      <Group gap="xs">
        <Code data-testid={testId}>{value}</Code>
        <Button size="compact-sm" variant="default" onClick={() => void copy(value)}>
          {t("sign_on.copy")}
        </Button>
      </Group>
    </div>
  );
}
