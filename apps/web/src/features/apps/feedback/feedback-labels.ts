/** Colours of the report statuses (0 new, 1 in progress, 2 resolved, 3 won't fix). */
export const statusColors = ["blue", "yellow", "green", "gray"] as const;
export const tagColors: Record<string, string> = { bug: "red", design: "grape", feedback: "teal" };
