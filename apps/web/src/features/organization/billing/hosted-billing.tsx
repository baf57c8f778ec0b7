// The Plan page's part where organizations buy their plan through Stripe.
import { useQuery } from "@tanstack/react-query";
import type { OrgData } from "../../../api/account.ts";
import { billingKeys, fetchBillingOverview } from "../../../api/billing.ts";
import { ROLE_OWNER } from "../../../api/roles.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { InvoiceList } from "./invoice-list.tsx";
import { PlanOffers } from "./plan-offers.tsx";
import { SubscriptionSummary } from "./subscription-summary.tsx";

export function HostedBilling({ org }: { org: OrgData }) {
  const overview = useQuery({
    queryKey: billingKeys.overview(org.org_id),
    queryFn: () => fetchBillingOverview(org.org_id),
  });
  if (overview.isPending) return <PageLoader />;
  if (overview.isError) return <LoadError onRetry={() => void overview.refetch()} />;
  if (!overview.data.enabled) return null;
  const canManage = org.role === ROLE_OWNER;
  return (
    <>
      <SubscriptionSummary
        billing={overview.data}
        orgId={org.org_id}
        subdomain={org.subdomain}
        canManage={canManage}
      />
      <PlanOffers billing={overview.data} orgId={org.org_id} canManage={canManage} />
      <InvoiceList orgId={org.org_id} />
    </>
  );
}
