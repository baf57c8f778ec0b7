import { afterEach, describe, expect, it, vi } from "vitest";
import de from "../../public/media/i18n/de.json" with { type: "json" };
import en from "../../public/media/i18n/en.json" with { type: "json" };
import ru from "../../public/media/i18n/ru.json" with { type: "json" };
import { applyLanguage, initI18n, LANGUAGE_STORAGE_KEY, readStoredLanguage } from "./i18n.ts";

function flatten(tree: object, prefix = ""): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "object" && value !== null) Object.assign(flat, flatten(value, path));
    else flat[path] = String(value);
  }
  return flat;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? "").sort();
}

const files = { en: flatten(en), de: flatten(de), ru: flatten(ru) };

const SPEC_MESSAGES: Record<string, string> = {
  "CANNOT LOAD MULTIPLE FILES PLEASE SELECT ONE FILE":
    "Multiple files cannot be loaded. Please select one file.",
  "PLEASE SELECT ONE OF THE ORGANIZATION": "Please select one of the organizations.",
  "SERVER ERROR": "Server error",
  "USER HAS BEEN CREATED SUCCESSFULLY":
    "The invitation has been sent. The person joins the organization once they accept it.",
  "ENSURE THIS FILENAME HAS AT MOST 100 CHARACTERS": "Ensure this file name has at most 100 characters.",
  "INCORRECT FILE": "Incorrect file",
  "THIS VERSION ALREADY EXISTS": "This version already exists",
  "ALREADY UPLOADED A NEW VERSION THIS VERSION IS OLDER":
    "A newer version has already been uploaded; this version is older.",
  "THIS IS ANOTHER APPLICATION": "This file belongs to another application.",
  "THIS IS A DIFFERENT TYPE OF APPLICATION": "This is a different type of application.",
  "STORAGE SPACE IS FULL PLEASE UPDATE YOUR TARIFF": "Storage space is full. Please upgrade your plan.",
  "YOU HAVE REACHED THE LIMIT FOR THE NUMBER OF UPLOADED BUILDS PLEASE UPDATE YOUR TARIFF":
    "You have reached the limit of uploaded builds. Please upgrade your plan.",
  "YOU HAVE NOT CONFIGURED YOUR ANDROID APP BUNDLE CONFIGURATION":
    "You have not set up your Android App Bundle configuration.",
  "FAILED TO CONVERT FILE AAB TO APK": "Failed to convert the AAB file to APK.",
  "NEED TO CHECK THE CUSTOM STORAGE CONFIGURATION": "Please check the custom storage configuration.",
  "COPIED TO CLIPBOARD": "Copied to clipboard",
  "FILE UPLOADED SUCCESSFULLY": "File uploaded successfully",
};

/** i18next's plural forms: "key_one", "key_few", … share the base "key". */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function baseKey(key: string): string {
  return key.replace(PLURAL_SUFFIX, "");
}

/** The texts of each key, plural forms grouped under their base key. */
function grouped(flat: Record<string, string>): Map<string, Map<string, string>> {
  const groups = new Map<string, Map<string, string>>();
  for (const [key, text] of Object.entries(flat)) {
    const base = baseKey(key);
    const forms = groups.get(base) ?? new Map<string, string>();
    forms.set(key === base ? "" : (PLURAL_SUFFIX.exec(key)?.[1] ?? ""), text);
    groups.set(base, forms);
  }
  return groups;
}

describe("translation files", () => {
  it("have the same keys in en, de and ru, plural forms apart", () => {
    const keys = [...grouped(files.en).keys()].sort();
    expect([...grouped(files.de).keys()].sort()).toEqual(keys);
    expect([...grouped(files.ru).keys()].sort()).toEqual(keys);
  });

  it("give every counted text each plural form its language needs, and no other", () => {
    for (const [language, flat] of Object.entries(files)) {
      const needed = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
      for (const [base, forms] of grouped(flat)) {
        if (forms.has("")) continue;
        expect([...forms.keys()].sort(), `${language}: ${base}`).toEqual(needed);
      }
    }
  });

  it("have no empty texts and the same placeholders in every language", () => {
    const english = grouped(files.en);
    for (const other of [files.de, files.ru]) {
      for (const [key, text] of Object.entries(other)) {
        const forms = english.get(baseKey(key));
        const source = forms?.get("") ?? forms?.get("other") ?? "";
        expect(text.trim(), key).not.toBe("");
        expect(placeholders(text), key).toEqual(placeholders(source));
      }
    }
    for (const [key, text] of Object.entries(files.en)) expect(text.trim(), key).not.toBe("");
  });

  it("carry the messages of spec §5 and §8 as keys with readable English text", () => {
    const shown = Object.fromEntries(Object.keys(SPEC_MESSAGES).map((key) => [key, files.en[key]]));
    expect(shown).toEqual(SPEC_MESSAGES);
  });

  it("name the language switcher 'Language' in English", () => {
    expect(files.en.language).toBe("Language");
  });
});

describe("language choice", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("defaults to en and ignores unsupported stored values", () => {
    expect(readStoredLanguage()).toBe("en");
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "fr");
    expect(readStoredLanguage()).toBe("en");
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "ru");
    expect(readStoredLanguage()).toBe("ru");
  });

  it("sets <html lang> and remembers the language", () => {
    applyLanguage("de");
    expect(document.documentElement.lang).toBe("de");
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("de");
  });

  it("loads /media/i18n/{lang}.json for the stored language and persists a switch", async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "de");
    const requested: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        requested.push(url);
        const body = url.endsWith("/de.json") ? de : url.endsWith("/ru.json") ? ru : en;
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    const i18n = await initI18n();
    expect(i18n.t("language")).toBe("Sprache");
    expect(document.documentElement.lang).toBe("de");
    await i18n.changeLanguage("ru");
    expect(i18n.t("FILE UPLOADED SUCCESSFULLY")).toBe("Файл успешно загружен");
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("ru");
    // English is loaded as well: it is the fallback for any missing key.
    expect(requested).toEqual(["/media/i18n/de.json", "/media/i18n/en.json", "/media/i18n/ru.json"]);
  });
});
