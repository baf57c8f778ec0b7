import {
  invoiceIdParams,
  invoicePage,
  invoiceQuery,
  invoiceWithPdf,
  invoiceWithPdfPage,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { BillingInvoiceService } from "./billing-invoice.service.ts";

const tags = ["billing"];

/** The invoice history (spec §7, pages from 1). Owners and admins. */
export function registerInvoiceRoutes(
  app: FastifyInstance,
  deps: { invoices: BillingInvoiceService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { invoices, publicUrl } = deps;

  const lists = [
    ["/api/invoice-history/", "The organization's invoices, newest first", invoicePage, invoices.list],
    [
      "/api/invoice-history-w-pdf/",
      "The organization's invoices, newest first, each with its PDF link",
      invoiceWithPdfPage,
      invoices.listWithPdf,
    ],
  ] as const;
  for (const [url, summary, page, load] of lists) {
    routes.get(
      url,
      { schema: { tags, summary, querystring: invoiceQuery, response: { 200: page, ...errorResponses } } },
      async (request) => {
        const params = pageParams(request.query, 10);
        const { count, results } = await load.call(
          invoices,
          requireActiveActor(request),
          request.query,
          params,
        );
        return toPage(request, publicUrl, params, count, results);
      },
    );
  }

  routes.get(
    "/api/invoice-history/:id/",
    {
      schema: {
        tags,
        summary: "One invoice, with its PDF link",
        params: invoiceIdParams,
        response: { 200: invoiceWithPdf, ...errorResponses },
      },
    },
    async (request) => invoices.get(requireActiveActor(request), request.params.id),
  );
}
