import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { billingKeys } from "../../../api/billing.ts";
import { organizationKeys } from "../../../api/organizations.ts";
import { planKeys } from "../../../api/plans.ts";

/** After a card or plan change: the overview, prices and invoices, and the plan's limits, read again. */
export function useRefreshBilling(orgId: number) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const queryKey of [billingKeys.all(orgId), planKeys.usage(orgId), organizationKeys.detail(orgId)]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient, orgId]);
}
