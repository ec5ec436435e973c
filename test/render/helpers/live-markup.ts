import MarkdownIt from "markdown-it";

/** What a CommonMark + GFM reader would make live in a piece of published markdown. */
export interface LiveMarkup {
  /** Images (`<img>` from `![…](…)`): each one a request to its URL when the page loads. */
  images: string[];
  /** Raw HTML, `<br>` aside (the one tag our escaping keeps). */
  html: string[];
  /** Links whose visible text is not their target: a reader cannot see where they go. */
  hiddenLinks: { text: string; href: string }[];
}

const markdown = new MarkdownIt({ html: true, linkify: true });
type Token = ReturnType<typeof markdown.parse>[number];

/**
 * Parses markdown the way GitHub's renderer reads it (CommonMark, raw HTML
 * allowed, bare URLs linked) and lists what would be live. Tests assert it is
 * empty for anything a model wrote.
 */
export function liveMarkup(text: string): LiveMarkup {
  const result: LiveMarkup = { images: [], html: [], hiddenLinks: [] };
  walk(markdown.parse(text, {}), result);
  return result;
}

function walk(tokens: readonly Token[], result: LiveMarkup): void {
  let link: { href: string; text: string } | null = null;
  for (const token of tokens) {
    if (token.type === "image") result.images.push(String(token.attrGet("src") ?? ""));
    if (token.type === "html_inline" || token.type === "html_block") {
      if (!/^<br\s*\/?>$/i.test(token.content.trim())) result.html.push(token.content);
    }
    if (token.type === "link_open") link = { href: String(token.attrGet("href") ?? ""), text: "" };
    else if (token.type === "link_close" && link !== null) {
      if (!showsTarget(link.text, link.href)) result.hiddenLinks.push(link);
      link = null;
    } else if (link !== null && (token.type === "text" || token.type === "code_inline")) {
      link.text += token.content;
    }
    if (token.children !== null) walk(token.children, result);
  }
}

/** The visible text is the target (an autolink), give or take the scheme linkify adds. */
function showsTarget(text: string, href: string): boolean {
  const decoded = safeDecode(href);
  return [href, decoded].some(
    (target) => target === text || target === `http://${text}` || target === `mailto:${text}`,
  );
}

function safeDecode(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}
