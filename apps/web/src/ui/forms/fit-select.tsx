import { Select, type SelectProps } from "@mantine/core";

/** The labels a Select can show, from any of the shapes Mantine accepts (strings, items, groups). */
export function optionLabels(data: readonly unknown[] | undefined): string[] {
  return (data ?? []).flatMap((entry): string[] => {
    if (typeof entry === "string") return [entry];
    if (typeof entry !== "object" || entry === null) return [];
    if ("items" in entry && Array.isArray(entry.items)) return optionLabels(entry.items);
    if ("label" in entry && typeof entry.label === "string") return [entry.label];
    return "value" in entry ? [String(entry.value)] : [];
  });
}

// Room beside the text: the input's padding and the dropdown chevron.
const CHROME = "3.5rem";

/**
 * A Select never narrower than its longest option, so the chosen label is never cut off (a select
 * input cannot wrap). `ch` is the width of a digit, wider than most letters, so it errs on the
 * roomy side. Placed in a FieldRow, it takes a line of its own when the row has no room for it.
 */
export function FitSelect({ style, ...props }: SelectProps) {
  const longest = Math.max(0, ...optionLabels(props.data).map((label) => label.length));
  return <Select {...props} style={{ minWidth: `min(100%, calc(${longest}ch + ${CHROME}))`, ...style }} />;
}
