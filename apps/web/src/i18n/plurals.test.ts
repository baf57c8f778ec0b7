// Counts read right in every language: "1 recipient", "2 Empfänger", "5 получателям".
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import de from "../../public/media/i18n/de.json" with { type: "json" };
import en from "../../public/media/i18n/en.json" with { type: "json" };
import ru from "../../public/media/i18n/ru.json" with { type: "json" };

const files = { en, de, ru };

async function translator(language: keyof typeof files): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    resources: { [language]: { translation: files[language] } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

function leaves(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === "object" && value !== null ? leaves(value, path) : [[path, String(value)]];
  });
}

/**
 * A count standing as a value ("Recipients: 3", "Send (3)") agrees with no word; any other
 * count is read with a noun and needs the plural forms.
 */
const COUNT_AS_VALUE = /(:\s*\{\{count\}\}|\(\{\{count\}\}\))/;

describe("plural forms", () => {
  it("come with every text that reads a count together with a word", () => {
    for (const [language, file] of Object.entries(files)) {
      const withoutForms = leaves(file).filter(
        ([key, text]) => text.includes("{{count}}") && !/_(one|few|many|other)$/.test(key),
      );
      for (const [key, text] of withoutForms) expect(text, `${language}: ${key}`).toMatch(COUNT_AS_VALUE);
    }
  });

  it("agree with 1, 2 and 5 in Russian", async () => {
    const t = await translator("ru");
    expect([1, 2, 5].map((count) => t("send.sent", { count }))).toEqual([
      "Письмо отправляется 1 получателю.",
      "Письмо отправляется 2 получателям.",
      "Письмо отправляется 5 получателям.",
    ]);
    expect([1, 2, 5, 21].map((count) => t("apps.devices", { count }))).toEqual([
      "1 устройство",
      "2 устройства",
      "5 устройств",
      "21 устройство",
    ]);
    expect([1, 3, 5].map((count) => t("distribution.limit", { used: 0, count }))).toEqual([
      "0 из 1 установки",
      "0 из 3 установок",
      "0 из 5 установок",
    ]);
    expect([1, 2, 5].map((count) => t("storage.move_done", { count }))).toEqual([
      "Все сборки перенесены (1 файл).",
      "Все сборки перенесены (2 файла).",
      "Все сборки перенесены (5 файлов).",
    ]);
  });

  it("agree with 1 and 2 in English and German", async () => {
    const english = await translator("en");
    expect([1, 2].map((count) => english("send.sent", { count }))).toEqual([
      "The mail is on its way to 1 recipient.",
      "The mail is on its way to 2 recipients.",
    ]);
    expect([1, 2].map((count) => english("apps.devices", { count }))).toEqual(["1 device", "2 devices"]);
    expect([1, 2].map((count) => english("distribution.limit", { used: 0, count }))).toEqual([
      "0 of 1 install",
      "0 of 2 installs",
    ]);
    const german = await translator("de");
    expect([1, 2].map((count) => german("storage.move_done", { count }))).toEqual([
      "Alle Builds wurden verschoben (1 Datei).",
      "Alle Builds wurden verschoben (2 Dateien).",
    ]);
    expect([1, 2].map((count) => german("apps.devices", { count }))).toEqual(["1 Gerät", "2 Geräte"]);
  });
});
