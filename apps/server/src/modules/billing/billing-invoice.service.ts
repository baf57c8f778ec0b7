/** The invoice history (`billing_invoices`, kept from Stripe's webhooks) for owners and admins. */
import type { Invoice, InvoiceWithPdf, OrganizationSelector } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Caller } from "../organization/membership.service.ts";
import { findInvoice, type InvoiceRow, listInvoices } from "./billing.repo.ts";
import type { BillingAccess } from "./billing-access.ts";
import { major } from "./stripe-objects.ts";

function present(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    amount: major(row.amountCents),
    currency: row.currency,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    created: row.createdAt.toISOString(),
    hosted_invoice_url: row.hostedInvoiceUrl,
  };
}

const withPdf = (row: InvoiceRow): InvoiceWithPdf => ({ ...present(row), invoice_pdf: row.invoicePdf });

export class BillingInvoiceService {
  constructor(private readonly deps: { db: Database; access: BillingAccess }) {}

  async list(caller: Caller, selector: OrganizationSelector, params: PageParams) {
    const { count, rows } = await this.page(caller, selector, params);
    return { count, results: rows.map(present) };
  }

  async listWithPdf(caller: Caller, selector: OrganizationSelector, params: PageParams) {
    const { count, rows } = await this.page(caller, selector, params);
    return { count, results: rows.map(withPdf) };
  }

  /** One invoice; an invoice of an organization the caller is not in is not found. */
  async get(caller: Caller, id: string): Promise<InvoiceWithPdf> {
    const row = await findInvoice(this.deps.db, id);
    if (!row) throw AppError.notFound();
    await this.deps.access.organizationOf(caller, { org: row.organizationId }, "billing:read");
    return withPdf(row);
  }

  private async page(caller: Caller, selector: OrganizationSelector, params: PageParams) {
    const organizationId = await this.deps.access.organizationOf(caller, selector, "billing:read");
    return listInvoices(this.deps.db, organizationId, { limit: params.pageSize, offset: params.offset });
  }
}
