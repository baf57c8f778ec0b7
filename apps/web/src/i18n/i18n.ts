// Translations are served as static files (/media/i18n/{lang}.json, spec §9) and loaded on demand.
import i18next, { type BackendModule, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";

export const SUPPORTED_LANGUAGES = ["en", "de", "ru"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_STORAGE_KEY = "lang";

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export function readStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Keeps <html lang> and the stored choice in step with the active language. */
export function applyLanguage(language: string): void {
  if (!isSupportedLanguage(language)) return;
  document.documentElement.lang = language;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private modes may refuse storage; the language still applies for this visit.
  }
}

export function buildTranslationUrl(language: string): string {
  return `/media/i18n/${language}.json`;
}

const fetchBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    fetch(buildTranslationUrl(language), { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(`Translations for ${language} answered ${response.status}`);
        return response.json();
      })
      .then(
        (data) => callback(null, data),
        (error: Error) => callback(error, false),
      );
  },
};

export async function initI18n(): Promise<I18n> {
  const instance = i18next.createInstance();
  instance.use(fetchBackend).use(initReactI18next);
  instance.on("languageChanged", applyLanguage);
  await instance.init({
    lng: readStoredLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    load: "currentOnly",
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}
