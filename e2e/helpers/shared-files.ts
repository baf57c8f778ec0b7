// Files every browser test reads: the English texts the pages show, and the build fixtures.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const en = JSON.parse(
  readFileSync(new URL("../../apps/web/public/media/i18n/en.json", import.meta.url), "utf8"),
);

/** An English text with its {{placeholders}} filled, as i18next shows it. */
export const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((result, [name, value]) => result.replaceAll(`{{${name}}}`, value), text);

/** The inspector's fixture builds (android/modern.apk and friends). */
export const fixtures = fileURLToPath(new URL("../../packages/inspector/fixtures/", import.meta.url));
