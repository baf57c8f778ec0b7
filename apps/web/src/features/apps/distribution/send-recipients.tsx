// The recipient picker of the send dialog: groups (all their testers at once), testers outside
// groups, organization members who may see the app, and the app's extra addresses.
import { Checkbox, ScrollArea, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { UserSummary } from "../../../api/applications.ts";
import type { TesterRecipients } from "../../../api/testers.ts";
import { type SendForm, toggle, toggleAll } from "./send-payload.ts";

function personName(person: Pick<UserSummary, "email" | "first_name" | "last_name">): string {
  const name = [person.first_name, person.last_name].filter(Boolean).join(" ");
  return name ? `${name} <${person.email}>` : person.email;
}

interface RecipientPickerProps {
  data: TesterRecipients;
  form: SendForm;
  onChange: (form: SendForm) => void;
}

export function RecipientPicker({ data, form, onChange }: RecipientPickerProps) {
  const { t } = useTranslation();
  const has = (list: number[], id: number) => list.includes(id);
  return (
    <ScrollArea.Autosize mah={320} type="auto">
      <Stack gap="sm">
        {data.groups.map((group) => {
          const ids = group.testers.map((tester) => tester.id);
          const chosen = ids.filter((id) => has(form.testers, id)).length;
          return (
            <Stack key={group.id} gap={4}>
              <Checkbox
                label={t("send.group_label", { title: group.title, count: ids.length })}
                checked={ids.length > 0 && chosen === ids.length}
                indeterminate={chosen > 0 && chosen < ids.length}
                disabled={ids.length === 0}
                onChange={(event) =>
                  onChange({ ...form, testers: toggleAll(form.testers, ids, event.currentTarget.checked) })
                }
              />
              <Stack gap={4} pl="lg">
                {group.testers.map((tester) => (
                  <Checkbox
                    key={tester.id}
                    size="xs"
                    label={personName(tester)}
                    checked={has(form.testers, tester.id)}
                    onChange={(event) =>
                      onChange({
                        ...form,
                        testers: toggle(form.testers, tester.id, event.currentTarget.checked),
                      })
                    }
                  />
                ))}
              </Stack>
            </Stack>
          );
        })}
        <RecipientList
          title={t("send.ungrouped")}
          items={data.testers.map((tester) => ({ id: tester.id, label: personName(tester) }))}
          chosen={form.testers}
          onChange={(testers) => onChange({ ...form, testers })}
        />
        <RecipientList
          title={t("send.members")}
          items={data.users.map((user) => ({ id: user.id, label: personName(user) }))}
          chosen={form.users}
          onChange={(users) => onChange({ ...form, users })}
        />
        <RecipientList
          title={t("send.app_mails")}
          items={data.app_mails.map((mail) => ({ id: mail.id, label: mail.email }))}
          chosen={form.mails}
          onChange={(mails) => onChange({ ...form, mails })}
        />
      </Stack>
    </ScrollArea.Autosize>
  );
}

/** A titled list of recipients to tick one by one; nothing when the list is empty. */
function RecipientList({
  title,
  items,
  chosen,
  onChange,
}: {
  title: string;
  items: { id: number; label: string }[];
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  if (items.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text fz="sm" fw={600}>
        {title}
      </Text>
      {items.map((item) => (
        <Checkbox
          key={item.id}
          size="xs"
          label={item.label}
          checked={chosen.includes(item.id)}
          onChange={(event) => onChange(toggle(chosen, item.id, event.currentTarget.checked))}
        />
      ))}
    </Stack>
  );
}
