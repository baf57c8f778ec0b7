import { useEffect, useState } from "react";

// How long typing must pause before a search box asks the server.
export const SEARCH_DELAY_MS = 400;

// A search box whose text is searched once typing pauses. Only a changed search calls
// `onChange` (lists go back to page 1 then); the first render does not, so a page picked before
// the timer fires stays picked.
export function useSettledSearch(onChange: () => void) {
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const settled = typed.trim();
    if (settled === search) return;
    const timer = setTimeout(() => {
      setSearch(settled);
      onChange();
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search, onChange]);
  return { typed, setTyped, search };
}
