// One organization for an instance administrator: its plan, each limit the plan's or its own,
// and its activity log.
import {
  Divider,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Text,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AdminOrganization,
  type AdminOrganizationPatch,
  adminKeys,
  LIMIT_KEYS,
  type LimitKey,
  updateAdminOrganization,
} from "../../api/admin.ts";
import { fetchPlans, planKeys, type Tariff } from "../../api/plans.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { ActivityLog } from "./activity-log.tsx";
import {
  buildPatch,
  formatLimit,
  formFromOrganization,
  LIMIT_NAME,
  type LimitChoice,
  type LimitsForm,
  missingLimits,
} from "./limits.ts";

const FORM_FIELDS = ["plan", ...LIMIT_KEYS.map((key) => `limits.${key}`)] as const;

export function OrganizationDialog({
  organization,
  onSaved,
  onClose,
}: {
  organization: AdminOrganization | null;
  /** The organization as saved: the dialog stays open on it, with its log brought up to date. */
  onSaved: (organization: AdminOrganization) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tariffs = useQuery({
    queryKey: planKeys.tariffs(),
    queryFn: fetchPlans,
    enabled: organization !== null,
  });
  const planTitle = (code: string) => tariffs.data?.find((plan) => plan.code === code)?.title ?? code;

  return (
    <Modal
      opened={organization !== null}
      onClose={onClose}
      title={organization ? t("admin.dialog_title", { title: organization.title }) : ""}
      size="xl"
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {organization ? (
        <Stack gap="lg">
          <Text fz="sm" c="dimmed">
            {organization.owner
              ? t("admin.dialog_summary", {
                  subdomain: organization.subdomain,
                  email: organization.owner.email,
                })
              : t("admin.dialog_summary_no_owner", { subdomain: organization.subdomain })}
          </Text>
          {tariffs.isPending ? <PageLoader /> : null}
          {tariffs.isError ? <LoadError onRetry={() => void tariffs.refetch()} /> : null}
          {tariffs.data ? (
            <PlanForm organization={organization} plans={tariffs.data} onSaved={onSaved} onClose={onClose} />
          ) : null}
          <Divider />
          <ActivityLog key={organization.id} organizationId={organization.id} planTitle={planTitle} />
        </Stack>
      ) : null}
    </Modal>
  );
}

function PlanForm({
  organization,
  plans,
  onSaved,
  onClose,
}: {
  organization: AdminOrganization;
  plans: Tariff[];
  onSaved: (organization: AdminOrganization) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FORM_FIELDS);
  const [planCode, setPlanCode] = useState(organization.plan.code);
  const [form, setForm] = useState<LimitsForm>(() => formFromOrganization(organization));
  const [missing, setMissing] = useState<LimitKey[]>([]);

  // A saved or another organization starts the form again from what it now holds.
  useEffect(() => {
    setPlanCode(organization.plan.code);
    setForm(formFromOrganization(organization));
    setMissing([]);
  }, [organization]);

  const save = useMutation({
    mutationFn: (patch: AdminOrganizationPatch) => updateAdminOrganization(organization.id, patch),
    onSuccess: (saved) => {
      alerts.show({ type: "success", message: t("admin.saved", { title: saved.title }) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all() });
      void queryClient.invalidateQueries({ queryKey: planKeys.usage(saved.id) });
      onSaved(saved);
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    const empty = missingLimits(form);
    setMissing(empty);
    if (empty.length > 0) return;
    const patch = buildPatch(organization, planCode, form);
    if (patch) save.mutate(patch);
    else alerts.show({ type: "info", message: t("admin.unchanged") });
  };

  const chosenPlan = plans.find((plan) => plan.code === planCode);
  const planOptions = plans.map((plan) => ({ value: plan.code, label: plan.title }));
  // A plan no longer listed still shows as the organization's own.
  if (!chosenPlan) planOptions.unshift({ value: planCode, label: organization.plan.title });
  const { errors } = formErrors;

  return (
    <form onSubmit={submit} noValidate aria-busy={save.isPending}>
      <Stack gap="md">
        <FormAlert state={formErrors} />
        <NativeSelect
          label={t("admin.plan")}
          description={t("admin.plan_hint")}
          data={planOptions}
          value={planCode}
          onChange={(event) => setPlanCode(event.currentTarget.value)}
          error={errors.fields.plan}
        />
        <Stack gap={4}>
          <Text fw={600} fz="sm">
            {t("admin.limits")}
          </Text>
          <Text fz="xs" c="dimmed">
            {t("admin.limits_hint")}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {LIMIT_KEYS.map((key) => (
            <LimitField
              key={key}
              limitKey={key}
              choice={form[key]}
              planValue={
                chosenPlan
                  ? formatLimit(key, chosenPlan[key], language, t("pricing.unlimited"))
                  : t("admin.plans_limit")
              }
              error={missing.includes(key) ? t("admin.limit_required") : errors.fields[`limits.${key}`]}
              onChange={(choice) => setForm((current) => ({ ...current, [key]: choice }))}
            />
          ))}
        </SimpleGrid>
        <FormDialogActions onCancel={onClose} busy={save.isPending} />
      </Stack>
    </form>
  );
}

function LimitField({
  limitKey,
  choice,
  planValue,
  error,
  onChange,
}: {
  limitKey: LimitKey;
  choice: LimitChoice;
  planValue: string;
  error: string | undefined;
  onChange: (choice: LimitChoice) => void;
}) {
  const { t } = useTranslation();
  const name = LIMIT_NAME[limitKey];
  return (
    <Stack gap={6}>
      <Radio.Group
        label={t(`usage.${name}`)}
        value={choice.own ? "own" : "plan"}
        onChange={(value) => onChange({ ...choice, own: value === "own" })}
      >
        <Group gap="md" mt={4}>
          <Radio value="plan" label={t("admin.limit_from_plan", { value: planValue })} />
          <Radio value="own" label={t("admin.limit_own")} />
        </Group>
      </Radio.Group>
      {choice.own ? (
        <NumberInput
          label={t(`admin.limit_input.${name}`)}
          description={
            limitKey === "space_limit" ? t("admin.limit_space_hint") : t("admin.limit_unlimited_hint")
          }
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
          value={choice.value}
          onChange={(value) => onChange({ ...choice, value: typeof value === "number" ? value : "" })}
          error={error}
        />
      ) : null}
    </Stack>
  );
}
