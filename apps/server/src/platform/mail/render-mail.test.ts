import { describe, expect, it } from "vitest";
import type { MailContent } from "./mail-content.ts";
import { mailText, renderMail } from "./render-mail.ts";

const hostile = `Acme <script>alert("x")</script> & 'Co'`;
const hostileUrl = `https://tarmac.test/activate/a"><img src=x onerror=alert(1)>?b=1&c=2`;

const content: MailContent = {
  subject: `You are invited to ${hostile} on Tarmac`,
  organization: { id: 7, name: hostile },
  title: `Join ${hostile}`,
  blocks: [
    "First line\nsecond line <b>bold</b>",
    { button: "Accept the invitation", url: hostileUrl },
    { heading: "What's new", text: "Faster & <i>lighter</i>" },
    { heading: "How to install", items: ["Open the link", "Tap <Install>"] },
  ],
  smallPrint: "The link is valid for 14 days.",
};

describe("the mail layout", () => {
  it("escapes a hostile organization name, text and link in the HTML", async () => {
    const { html } = await renderMail(content);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).not.toContain("<i>lighter</i>");
    expect(html).toContain("Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;Co&#x27;");
    expect(html).toContain("second line &lt;b&gt;bold&lt;/b&gt;");
    // The link stays one attribute: its quote cannot close it.
    expect(html).toContain(
      `href="https://tarmac.test/activate/a&quot;&gt;&lt;img src=x onerror=alert(1)&gt;?b=1&amp;c=2"`,
    );
  });

  it("heads the mail with the organization's name, or Tarmac's for its own mail", async () => {
    const { html } = await renderMail(content);
    expect(html).toMatch(/class="mail-header"[^>]*>.*Acme &lt;script&gt;/s);
    expect(html).toContain(
      `— Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;Co&#x27; via Tarmac`,
    );
    const own = await renderMail({ subject: "Hello", title: "Hello", blocks: ["Hi."] });
    expect(own.html).toMatch(/class="mail-header"[^>]*>.*>Tarmac</s);
    expect(own.text).toBe("Hello\n\nHi.\n\n— Tarmac\n");
  });

  it("has one button and its link written out below it", async () => {
    const { html } = await renderMail(content);
    const escapedUrl =
      "https://tarmac.test/activate/a&quot;&gt;&lt;img src=x onerror=alert(1)&gt;?b=1&amp;c=2";
    expect(html.match(/class="mail-button"/g)).toHaveLength(1);
    expect(html).toMatch(/class="mail-button"[^>]*>.*Accept the invitation/s);
    expect(html).toContain(`If the button does not work, open this link:`);
    expect(html).toContain(`>${escapedUrl}</a>`);
  });

  it("is readable on phones and in dark mode", async () => {
    const { html } = await renderMail(content);
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toMatch(
      /@media \(prefers-color-scheme: dark\) \{[^@]*\.mail-text \{ color: #e9ecef !important; \}/,
    );
    expect(html).toMatch(/@media only screen and \(max-width: 620px\) \{[^@]*font-size: 16px !important/);
    expect(html).not.toMatch(/background-image|<img/);
  });

  it("writes the plain text from the same content, not from the HTML", async () => {
    const rendered = await renderMail(content);
    expect(rendered.subject).toBe(content.subject);
    expect(rendered.text).toBe(mailText(content));
    expect(rendered.text).toBe(
      `${[
        `Join ${hostile}`,
        "First line\nsecond line <b>bold</b>",
        `Accept the invitation: ${hostileUrl}`,
        "What's new:\nFaster & <i>lighter</i>",
        "How to install:\n- Open the link\n- Tap <Install>",
        "The link is valid for 14 days.",
        `— ${hostile} via Tarmac`,
      ].join("\n\n")}\n`,
    );
  });
});
