import type { ReactNode } from "react";

/** Form fields side by side while they fit, each on a line of its own when not (see styles.css). */
export function FieldRow({ children }: { children: ReactNode }) {
  return <div className="field-row">{children}</div>;
}
