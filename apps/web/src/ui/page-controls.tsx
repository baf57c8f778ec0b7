import { Pagination } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Page buttons under a list, with translated labels; nothing when there is one page. */
export function PageControls({
  pages,
  page,
  onChange,
}: {
  pages: number;
  page: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Pagination
      total={pages}
      value={page}
      onChange={onChange}
      getControlProps={(control) => ({ "aria-label": t(`pagination.${control}`) })}
    />
  );
}
