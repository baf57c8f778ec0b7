// The bordered table of a list page: it scrolls sideways on narrow screens and hovers its rows.
import { Paper, Table } from "@mantine/core";
import type { ReactNode } from "react";

export function ListTable({
  minWidth,
  headings,
  children,
}: {
  minWidth: number;
  /** One cell a column; a column without a visible heading still names itself for screen readers. */
  headings: ReactNode[];
  /** The rows (`Table.Tr`). */
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {headings.map((heading, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a table
                <Table.Th key={index}>{heading}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
