import { useTranslation } from "react-i18next";
import type { ContentLanguage } from "./content.ts";

/** The language content is asked in: the interface's own (en, de or ru). */
export function useContentLanguage(): ContentLanguage {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return language === "de" || language === "ru" ? language : "en";
}
