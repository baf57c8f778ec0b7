import { Typography } from "@mantine/core";

/**
 * HTML the server rendered from an editor's Markdown. The server sanitizes it (no script, no
 * event attributes, no script links), so it is safe to place as markup here.
 */
export function HtmlBody({ html, className }: { html: string; className?: string }) {
  return (
    <Typography className={className ? `content-html ${className}` : "content-html"}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server, see above */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
