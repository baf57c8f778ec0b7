// The invoice history (spec §7): pages from 1, newest first, each with its PDF.
import { Anchor, Badge, Stack, Table, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { billingKeys, fetchInvoices, INVOICE_PAGE_SIZE, type InvoiceWithPdf } from "../../../api/billing.ts";
import { ListTable } from "../../../ui/list-table.tsx";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageControls } from "../../../ui/page-controls.tsx";
import { Section } from "../../../ui/page-frame.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { useBillingFormats } from "./billing-format.ts";

const statusColors: Record<string, string> = { paid: "green", open: "yellow", uncollectible: "red" };
const knownStatuses = new Set(["draft", "open", "paid", "void", "uncollectible"]);

export function InvoiceList({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const invoices = useQuery({
    queryKey: billingKeys.invoices(orgId, page),
    queryFn: () => fetchInvoices(orgId, page),
    placeholderData: keepPreviousData,
  });
  const pages = Math.ceil((invoices.data?.count ?? 0) / INVOICE_PAGE_SIZE);
  return (
    <Section title={t("billing.invoices.title")}>
      {invoices.isPending ? <PageLoader /> : null}
      {invoices.isError ? <LoadError onRetry={() => void invoices.refetch()} /> : null}
      {invoices.data?.count === 0 ? <Text c="dimmed">{t("billing.invoices.empty")}</Text> : null}
      {invoices.data && invoices.data.results.length > 0 ? (
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            {t("billing.invoices.count", { count: invoices.data.count })}
          </Text>
          <ListTable
            minWidth={560}
            headings={[
              t("billing.invoices.date"),
              t("billing.invoices.number"),
              t("billing.invoices.amount"),
              t("billing.invoices.status"),
              t("billing.invoices.pdf"),
            ]}
          >
            {invoices.data.results.map((invoice) => (
              <InvoiceRow key={invoice.id} invoice={invoice} />
            ))}
          </ListTable>
          <PageControls pages={pages} page={page} onChange={setPage} />
        </Stack>
      ) : null}
    </Section>
  );
}

function InvoiceRow({ invoice }: { invoice: InvoiceWithPdf }) {
  const { t } = useTranslation();
  const { money, date } = useBillingFormats();
  const number = invoice.number ?? invoice.id;
  return (
    <Table.Tr>
      <Table.Td>{date(invoice.created)}</Table.Td>
      <Table.Td>{number}</Table.Td>
      <Table.Td>{money(invoice.amount, invoice.currency)}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={statusColors[invoice.status] ?? "gray"}>
          {knownStatuses.has(invoice.status)
            ? t(`billing.invoices.statuses.${invoice.status}`)
            : invoice.status}
        </Badge>
      </Table.Td>
      <Table.Td>
        {invoice.invoice_pdf ? (
          <Anchor
            href={invoice.invoice_pdf}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t("billing.invoices.pdf_link", { number })}
          >
            {t("billing.invoices.pdf")}
          </Anchor>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
