import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { isSupportedLanguage, SUPPORTED_LANGUAGES } from "../i18n/i18n.ts";

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const current = isSupportedLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : "en";
  return (
    <NativeSelect
      aria-label={t("language")}
      size="xs"
      w={112}
      value={current}
      data={SUPPORTED_LANGUAGES.map((language) => ({
        value: language,
        label: t(`language_names.${language}`),
      }))}
      onChange={(event) => {
        void i18n.changeLanguage(event.currentTarget.value);
      }}
    />
  );
}
