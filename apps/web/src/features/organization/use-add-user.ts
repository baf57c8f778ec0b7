// State and rules of the add-user dialog (spec §4, §5, §8, §9).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { ApiError } from "../../api/client.ts";
import { readFormErrors } from "../../api/form-errors.ts";
import { invitationKeys } from "../../api/invitations.ts";
import { isUserLimitReached } from "../../api/plan-limits.ts";
import { ROLE_ADMIN } from "../../api/roles.ts";
import {
  type AssignableRole,
  inviteMember,
  type OrgUser,
  searchOrgUsers,
  staffKeys,
} from "../../api/staff.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";

export const USER_SEARCH_DEBOUNCE_MS = 1500;
const ADD_USER_FIELDS = ["userid", "role", "teams", "projects", "first_name", "last_name"];

export function hasUserLimitCode(body: unknown): boolean {
  if (typeof body !== "object" || body === null || !("error_code" in body)) return false;
  return String((body as { error_code: unknown }).error_code).includes("user_limit_reached");
}

export function findExactMatch(users: OrgUser[], search: string): OrgUser | null {
  return users.find((user) => user.email.toLowerCase() === search) ?? null;
}

export function useAddUser(org: OrgData, opened: boolean, onDone: () => void) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [search, setSearch] = useState("");
  const [role, setRole] = useState<number | null>(ROLE_ADMIN);
  const [teams, setTeams] = useState<string[]>([]);
  const [projects, setProjects] = useState<string[]>([]);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [matched, setMatched] = useState<OrgUser | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [addingAllowed, setAddingAllowed] = useState(true);
  const [roleMissing, setRoleMissing] = useState(false);

  // Every opening starts clean: admin preselected, no selections, and the limit checked again.
  useEffect(() => {
    if (!opened) return;
    setEmail("");
    setSearch("");
    setRole(ROLE_ADMIN);
    setTeams([]);
    setProjects([]);
    setFirstName("");
    setLastName("");
    setMatched(null);
    setFieldErrors({});
    setGeneralError(null);
    setRoleMissing(false);
    setAddingAllowed(!isUserLimitReached(org.users_count, org.user_limit));
  }, [opened, org.users_count, org.user_limit]);

  // The search applies once typing has paused for 1500 ms, lower-cased.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(email.trim().toLowerCase()), USER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [email]);

  const searchQuery = useQuery({
    queryKey: staffKeys.userSearch(org.org_id, search),
    queryFn: () => searchOrgUsers(org.org_id, search),
    enabled: opened && search !== "",
    staleTime: 0,
  });
  const results = searchQuery.data?.results ?? [];

  useEffect(() => {
    // An answer for an address the field no longer holds must not pick a user.
    if (!searchQuery.data || search !== email.trim().toLowerCase()) return;
    const exact = findExactMatch(searchQuery.data.results, search);
    if (exact) {
      setMatched(exact);
      setFirstName(exact.first_name);
      setLastName(exact.last_name);
    } else if (matched) {
      // The names came from the previous match; they do not belong to the new address.
      setMatched(null);
      setFirstName("");
      setLastName("");
    }
  }, [searchQuery.data, search, email, matched]);

  // Editing the address drops a match at once: adding before the next search would add that user.
  const changeEmail = (value: string) => {
    setEmail(value);
    if (matched && value.trim().toLowerCase() !== matched.email.toLowerCase()) {
      setMatched(null);
      setFirstName("");
      setLastName("");
    }
  };

  // An existing account keeps its own name: editing is locked once it has one.
  const namesLocked = matched !== null && (matched.first_name !== "" || matched.last_name !== "");

  const create = useMutation({
    mutationFn: inviteMember,
    onSuccess: () => {
      setEmail("");
      setSearch("");
      setTeams([]);
      setProjects([]);
      setFirstName("");
      setLastName("");
      setMatched(null);
      alerts.show({ type: "success", message: t("USER HAS BEEN CREATED SUCCESSFULLY") });
      void queryClient.invalidateQueries({ queryKey: staffKeys.all(org.org_id) });
      void queryClient.invalidateQueries({ queryKey: invitationKeys.organization(org.org_id) });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 429) {
        setGeneralError(t("staff.invite_throttled"));
        return;
      }
      if (error instanceof ApiError && error.status === 400 && hasUserLimitCode(error.body)) {
        setAddingAllowed(false);
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        const parsed = readFormErrors(error, ADD_USER_FIELDS, t("SERVER ERROR"));
        setFieldErrors(parsed.fields);
        setGeneralError(parsed.general);
        return;
      }
      setGeneralError(t("SERVER ERROR"));
    },
  });

  const submit = () => {
    setFieldErrors({});
    setGeneralError(null);
    // Without a role nothing is sent (spec §5).
    if (role === null) {
      setRoleMissing(true);
      return;
    }
    setRoleMissing(false);
    if (!addingAllowed || create.isPending) return;
    const typed = email.trim().toLowerCase();
    create.mutate({
      // Always the address: the server invites by address only (ids would expose other accounts).
      userid: matched ? matched.email.toLowerCase() : typed,
      organization: org.org_id,
      // The picker offers assignable roles only.
      role: role as AssignableRole,
      teams: teams.map(Number),
      projects: projects.map(Number),
      first_name: firstName.trim(),
      last_name: lastName.trim(),
    });
  };

  const pickUser = (user: OrgUser) => {
    setEmail(user.email);
    setSearch(user.email.toLowerCase());
  };

  return {
    email,
    setEmail: changeEmail,
    role,
    setRole,
    teams,
    setTeams,
    projects,
    setProjects,
    firstName,
    setFirstName,
    lastName,
    setLastName,
    matched,
    namesLocked,
    results,
    searching: searchQuery.isFetching,
    pickUser,
    fieldErrors,
    generalError,
    roleMissing,
    addingAllowed,
    busy: create.isPending,
    submit,
  };
}
