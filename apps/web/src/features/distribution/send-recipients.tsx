// The recipient picker of the send dialog: groups (all their testers at once), testers outside
// groups, organization members who may see the app, and the app's extra addresses.
import { Checkbox, ScrollArea, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { TesterRecipients } from "../../api/testers.ts";
import { type SendForm, toggle, toggleAll } from "./send-payload.ts";

function personName(person: { email: string; first_name: string; last_name: string }): string {
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
        {data.testers.length > 0 ? (
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              {t("send.ungrouped")}
            </Text>
            {data.testers.map((tester) => (
              <Checkbox
                key={tester.id}
                size="xs"
                label={personName(tester)}
                checked={has(form.testers, tester.id)}
                onChange={(event) =>
                  onChange({ ...form, testers: toggle(form.testers, tester.id, event.currentTarget.checked) })
                }
              />
            ))}
          </Stack>
        ) : null}
        {data.users.length > 0 ? (
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              {t("send.members")}
            </Text>
            {data.users.map((user) => (
              <Checkbox
                key={user.id}
                size="xs"
                label={personName(user)}
                checked={has(form.users, user.id)}
                onChange={(event) =>
                  onChange({ ...form, users: toggle(form.users, user.id, event.currentTarget.checked) })
                }
              />
            ))}
          </Stack>
        ) : null}
        {data.app_mails.length > 0 ? (
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              {t("send.app_mails")}
            </Text>
            {data.app_mails.map((mail) => (
              <Checkbox
                key={mail.id}
                size="xs"
                label={mail.email}
                checked={has(form.mails, mail.id)}
                onChange={(event) =>
                  onChange({ ...form, mails: toggle(form.mails, mail.id, event.currentTarget.checked) })
                }
              />
            ))}
          </Stack>
        ) : null}
      </Stack>
    </ScrollArea.Autosize>
  );
}
