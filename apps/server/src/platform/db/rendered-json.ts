/**
 * A JSON object's text (a record the database rendered, see record_json) with more fields
 * appended, as text: the rendered part is neither parsed nor serialized again. `added` holds
 * values to serialize, `addedJson` values that are JSON text already (records within records).
 * The added keys must not be among the rendered ones.
 */
export function extendJsonObject(
  renderedJson: string,
  added: Record<string, unknown>,
  addedJson: Record<string, string> = {},
): string {
  const parts: string[] = [];
  const rendered = renderedJson.trim();
  if (!rendered.startsWith("{") || !rendered.endsWith("}")) {
    throw new Error("extendJsonObject: not a JSON object");
  }
  const inside = rendered.slice(1, -1).trim();
  if (inside) parts.push(inside);
  const extra = JSON.stringify(added).slice(1, -1);
  if (extra) parts.push(extra);
  for (const [key, json] of Object.entries(addedJson)) parts.push(`${JSON.stringify(key)}:${json}`);
  return `{${parts.join(",")}}`;
}
