// A short note over every dashboard page while invitations wait for an answer, leading to the
// invitations page. Closing it hides it for this browser session, until another invitation comes.
import { Alert, Anchor, Group, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { fetchMyInvitations, invitationKeys } from "../../api/invitations.ts";
import { useLoggedIn } from "../../api/use-logged-in.ts";

export const INVITATIONS_PAGE = "/dashboard/invitations";
const DISMISSED_KEY = "invitations_prompt_dismissed";

export function InvitationsPrompt() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { profile } = useDashboard();
  const loggedIn = useLoggedIn();
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED_KEY));
  // Only an activated account can answer invitations (the server refuses the others), and
  // nothing is asked while signing out.
  const query = useQuery({
    queryKey: invitationKeys.mine(),
    queryFn: fetchMyInvitations,
    enabled: loggedIn && profile?.is_active === true,
  });
  const invitations = query.data ?? [];
  // Dismissing hides the invitations seen then, not one that arrives later.
  const seen = invitations.map((invitation) => invitation.id).join(",");
  if (invitations.length === 0 || seen === dismissed || pathname === INVITATIONS_PAGE) return null;

  const dismiss = () => {
    sessionStorage.setItem(DISMISSED_KEY, seen);
    setDismissed(seen);
  };
  const [first] = invitations;
  return (
    <Alert
      color="blue"
      variant="light"
      mb="md"
      maw={1100}
      withCloseButton
      closeButtonLabel={t("invitations.prompt_dismiss")}
      onClose={dismiss}
      data-testid="invitations-prompt"
    >
      <Group gap="sm">
        <Text fz="sm">
          {invitations.length === 1 && first
            ? t("invitations.prompt_single", { organization: first.organization.title })
            : t("invitations.prompt_several", { count: invitations.length })}
        </Text>
        <Anchor component={Link} to={INVITATIONS_PAGE} fz="sm" fw={600}>
          {t("invitations.prompt_open")}
        </Anchor>
      </Group>
    </Alert>
  );
}
