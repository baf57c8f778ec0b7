/**
 * The one layout of every mail Tarmac sends: a header with the sender's name, a title, the
 * body, one button with its link written out, small print and a signature. Styles are inline
 * for clients that drop <style>; the <style> block adds what only it can: phones (full width,
 * 16 px text, a full-width button) and dark mode (colours that keep their contrast). All text
 * is React children or attributes, so React escapes it.
 */
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { createElement, Fragment, type ReactNode } from "react";
import {
  brandOf,
  type MailBlock,
  type MailContent,
  organizationLogoCid,
  previewOf,
  signatureOf,
} from "./mail-content.ts";

const font = '-apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

/** Light colours inline; the dark ones below replace them. White on `accent` is 4.9:1. */
const colors = {
  page: "#f1f3f5",
  card: "#ffffff",
  border: "#dee2e6",
  text: "#212529",
  muted: "#495057",
  accent: "#1971c2",
  onAccent: "#ffffff",
};

const css = `
body { margin: 0; padding: 0; -webkit-text-size-adjust: 100%; }
.mail-button:hover { background-color: #1864ab !important; }
@media only screen and (max-width: 620px) {
  .mail-page > table > tbody > tr > td { padding: 0 !important; }
  .mail-card { width: 100% !important; max-width: 100% !important; border-radius: 0 !important; border: 0 !important; }
  .mail-header, .mail-main { padding-left: 16px !important; padding-right: 16px !important; }
  .mail-text { font-size: 16px !important; line-height: 24px !important; }
  .mail-title { font-size: 22px !important; line-height: 28px !important; }
  .mail-button { display: block !important; text-align: center !important; font-size: 17px !important; }
}
@media (prefers-color-scheme: dark) {
  .mail-page, .mail-page > table > tbody > tr > td { background-color: #141517 !important; }
  .mail-card { background-color: #1f2023 !important; border-color: #373a40 !important; }
  .mail-title, .mail-text { color: #e9ecef !important; }
  .mail-muted { color: #ced4da !important; }
  .mail-link { color: #74c0fc !important; }
  .mail-rule { border-color: #373a40 !important; }
}
`;

const textStyle = { color: colors.text, fontSize: "15px", lineHeight: "24px", margin: "0 0 16px" };
const mutedStyle = { ...textStyle, color: colors.muted, fontSize: "13px", lineHeight: "20px" };

/** Text with its line breaks kept. */
function lines(text: string): ReactNode {
  const parts: ReactNode[] = [];
  for (const line of text.split("\n")) {
    if (parts.length > 0) parts.push(createElement("br"));
    parts.push(line);
  }
  return createElement(Fragment, null, ...parts);
}

function listItem(item: string) {
  return (
    <li className="mail-text" style={{ ...textStyle, margin: "0 0 4px" }}>
      {item}
    </li>
  );
}

function MailAction({ label, url }: { label: string; url: string }) {
  return (
    <Section style={{ margin: "8px 0 16px" }}>
      <Button
        href={url}
        className="mail-button"
        style={{
          backgroundColor: colors.accent,
          color: colors.onAccent,
          fontSize: "16px",
          fontWeight: 600,
          lineHeight: "20px",
          padding: "14px 24px",
          borderRadius: "6px",
          textDecoration: "none",
        }}
      >
        {label}
      </Button>
      <Text className="mail-muted" style={{ ...mutedStyle, margin: "12px 0 0", wordBreak: "break-all" }}>
        {"If the button does not work, open this link: "}
        <Link href={url} className="mail-link" style={{ color: colors.accent, textDecoration: "underline" }}>
          {url}
        </Link>
      </Text>
    </Section>
  );
}

function block(part: MailBlock): ReactNode {
  if (typeof part === "string") {
    return (
      <Text className="mail-text" style={textStyle}>
        {lines(part)}
      </Text>
    );
  }
  if ("button" in part) return <MailAction label={part.button} url={part.url} />;
  const heading = (
    <Text className="mail-text" style={{ ...textStyle, fontWeight: 600, margin: "0 0 4px" }}>
      {part.heading}
    </Text>
  );
  if ("text" in part) {
    return (
      <Section>
        {heading}
        <Text className="mail-text" style={textStyle}>
          {lines(part.text)}
        </Text>
      </Section>
    );
  }
  return (
    <Section>
      {heading}
      <ul style={{ margin: "0 0 16px", paddingLeft: "20px" }}>
        {createElement(Fragment, null, ...part.items.map(listItem))}
      </ul>
    </Section>
  );
}

export function MailLayout({ content }: { content: MailContent }) {
  return (
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{content.subject}</title>
        <style>{css}</style>
      </Head>
      <Preview>{previewOf(content)}</Preview>
      <Body
        className="mail-page"
        style={{ backgroundColor: colors.page, margin: 0, padding: "24px 0", fontFamily: font }}
      >
        <Container
          className="mail-card"
          style={{
            backgroundColor: colors.card,
            border: `1px solid ${colors.border}`,
            borderRadius: "8px",
            maxWidth: "600px",
            width: "100%",
          }}
        >
          <Section
            className="mail-header"
            style={{ backgroundColor: colors.accent, borderRadius: "8px 8px 0 0", padding: "16px 32px" }}
          >
            {content.organization?.logo ? (
              // Carried inside the mail (content id), 48 px high; the name stays beside it as text.
              <Img
                src={`cid:${organizationLogoCid}`}
                alt=""
                height="48"
                style={{
                  display: "block",
                  height: "48px",
                  width: "auto",
                  maxWidth: "240px",
                  margin: "0 0 8px",
                }}
              />
            ) : null}
            <Text
              style={{
                color: colors.onAccent,
                fontSize: "18px",
                fontWeight: 700,
                lineHeight: "24px",
                margin: 0,
              }}
            >
              {brandOf(content)}
            </Text>
          </Section>
          <Section className="mail-main" style={{ padding: "24px 32px 8px" }}>
            <Heading
              as="h1"
              className="mail-title"
              style={{ color: colors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}
            >
              {content.title}
            </Heading>
            {createElement(Fragment, null, ...content.blocks.map(block))}
            {content.smallPrint ? (
              <Text className="mail-muted" style={mutedStyle}>
                {content.smallPrint}
              </Text>
            ) : null}
            <Hr className="mail-rule" style={{ borderColor: colors.border, margin: "8px 0 16px" }} />
            <Text className="mail-muted" style={mutedStyle}>
              {`— ${signatureOf(content)}`}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
