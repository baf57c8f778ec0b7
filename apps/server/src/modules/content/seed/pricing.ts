import type { ContentLanguage, Tariff } from "@tarmac/contracts";

const words = {
  en: {
    free: "free",
    perMonth: "a month",
    unlimited: "unlimited",
    storage: "storage",
    builds: "builds",
    projects: "projects",
    people: "people",
  },
  de: {
    free: "kostenlos",
    perMonth: "im Monat",
    unlimited: "unbegrenzt",
    storage: "Speicher",
    builds: "Builds",
    projects: "Projekte",
    people: "Personen",
  },
  ru: {
    free: "бесплатно",
    perMonth: "в месяц",
    unlimited: "без ограничений",
    storage: "хранилище",
    builds: "сборки",
    projects: "проекты",
    people: "участники",
  },
} satisfies Record<ContentLanguage, Record<string, string>>;

function sizeOf(megabytes: number, language: ContentLanguage): string {
  const gigabytes = megabytes / 1024;
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  return gigabytes >= 1 ? `${number.format(gigabytes)} GB` : `${number.format(megabytes)} MB`;
}

/** The plans as a Markdown list: price, then each limit (0 is unlimited, as everywhere). */
export function pricingSection(tariffs: Tariff[], language: ContentLanguage): string {
  const w = words[language];
  const limit = (value: number, text: (value: number) => string) => (value > 0 ? text(value) : w.unlimited);
  return tariffs
    .map((tariff) => {
      const price =
        tariff.price > 0
          ? `${new Intl.NumberFormat(language, { style: "currency", currency: tariff.currency.toUpperCase() }).format(tariff.price)} ${w.perMonth}`
          : w.free;
      const limits = [
        `${w.storage}: ${limit(tariff.space_limit, (mb) => sizeOf(mb, language))}`,
        `${w.builds}: ${limit(tariff.build_limit, String)}`,
        `${w.projects}: ${limit(tariff.projects_limit, String)}`,
        `${w.people}: ${limit(tariff.user_limit, String)}`,
      ];
      return `- **${tariff.title}** — ${price}; ${limits.join(", ")}`;
    })
    .join("\n");
}
