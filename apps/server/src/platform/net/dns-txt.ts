import { Resolver } from "node:dns/promises";

/** The TXT records of a name, each record's strings joined; empty when the name has none. */
export type TxtLookup = (name: string) => Promise<string[]>;

/** Answers that mean "no such record" rather than "could not ask". */
const noRecord = new Set(["ENOTFOUND", "ENODATA", "ENONAME"]);

/**
 * Reads TXT records from the given servers (`ip` or `ip:port`), or the system's resolvers when
 * none are given. A lookup that could not be answered (timeout, refused) throws, so a re-check
 * can tell "the record is gone" from "DNS did not answer".
 */
export function txtLookup(servers: readonly string[]): TxtLookup {
  return async (name) => {
    const resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (servers.length > 0) resolver.setServers([...servers]);
    try {
      return (await resolver.resolveTxt(name)).map((parts) => parts.join(""));
    } catch (error) {
      if (noRecord.has((error as NodeJS.ErrnoException).code ?? "")) return [];
      throw error;
    }
  };
}
