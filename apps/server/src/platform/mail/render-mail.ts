import { render } from "@react-email/render";
import { createElement } from "react";
import { MailLayout } from "./layout.tsx";
import { type MailBlock, type MailContent, signatureOf } from "./mail-content.ts";

/** A mail ready to send: both parts, drawn from the same content. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function blockText(block: MailBlock): string {
  if (typeof block === "string") return block;
  if ("button" in block) return `${block.button}: ${block.url}`;
  if ("text" in block) return `${block.heading}:\n${block.text}`;
  return `${block.heading}:\n${block.items.map((item) => `- ${item}`).join("\n")}`;
}

/** The plain-text part, written from the content itself (not scraped from the HTML). */
export function mailText(content: MailContent): string {
  const parts = [content.title, ...content.blocks.map(blockText), content.smallPrint ?? ""];
  return `${[...parts.filter(Boolean), `— ${signatureOf(content)}`].join("\n\n")}\n`;
}

/** The subject, the plain text and the HTML of the layout. */
export async function renderMail(content: MailContent): Promise<RenderedMail> {
  const html = await render(createElement(MailLayout, { content }));
  return { subject: content.subject, text: mailText(content), html };
}
