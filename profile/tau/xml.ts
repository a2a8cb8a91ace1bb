/**
 * The XML metadata block TAU writes on line 2 of a profile file:
 * `<metadata><attribute><name>K</name><value>V</value></attribute>...</metadata>`.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes XML character references and the five predefined entities; unknown entities are kept as written. */
export function decodeXmlText(s: string): string {
  if (s.indexOf("&") < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ent: string) => {
    if (ent[0] === "#") {
      const code = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ent] ?? whole;
  });
}

/** Escapes text as TAU's `Tau_XML_writeString` does (without its CDATA shortcut): & " ' newline < >. */
export function encodeXmlText(s: string): string {
  if (!/[&"'\n<>\r]/.test(s)) return s;
  return s
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#xa;")
    .replace(/\r/g, "&#xd;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * Text as TAU's `Tau_XML_writeString` writes it into an XML profile: in a CDATA section when it
 * holds `<` or `&` (and neither `]]>` nor a line break), else escaped as {@link encodeXmlText}.
 */
export function tauXmlString(s: string): string {
  if ((s.indexOf("<") >= 0 || s.indexOf("&") >= 0) && s.indexOf("]]>") < 0 && s.indexOf("\n") < 0) return `<![CDATA[${s}]]>`;
  return encodeXmlText(s);
}

/**
 * Parses a `<metadata>` block into name/value pairs in document order. Attributes with a
 * `<timer_context>` (context metadata) are named `"<timer> : <name>"`; attributes nested inside a
 * value (TAU's object metadata) are named `"<outer>:<inner>"`.
 *
 * @returns the pairs, or a string describing what is malformed.
 */
export function parseMetadataXml(xml: string): [string, string][] | string {
  const out: [string, string][] = [];
  const err = parseAttributes(escapeCdata(xml), "", out, 0);
  return err ?? out;
}

/**
 * The block with each CDATA section replaced by its escaped text. TAU writes a name or value holding
 * `<` or `&` in a CDATA section, where markup is text (`./a.out '<value>'`): the searches for tags
 * below must not see it. Text decodes to the same characters either way.
 */
function escapeCdata(xml: string): string {
  if (xml.indexOf("<![CDATA[") < 0) return xml;
  return xml.replace(/<!\[CDATA\[([^]*?)\]\]>/g, (_, text: string) => encodeXmlText(text));
}

/** Deepest nesting of object metadata accepted (TAU writes one or two levels; the limit keeps hostile input from exhausting the stack). */
const MAX_NESTING = 32;

function parseAttributes(xml: string, prefix: string, out: [string, string][], depthNow: number): string | undefined {
  if (depthNow > MAX_NESTING) return `metadata nested deeper than ${MAX_NESTING} levels`;
  let i = 0;
  for (;;) {
    const a = xml.indexOf("<attribute>", i);
    if (a < 0) return undefined;
    const n0 = xml.indexOf("<name>", a);
    const n1 = xml.indexOf("</name>", n0);
    if (n0 < 0 || n1 < 0) return "an <attribute> without <name>...</name>";
    const name = decodeXmlText(xml.slice(n0 + 6, n1));
    let context: string | undefined;
    const v0 = xml.indexOf("<value>", n1);
    if (v0 < 0) return `attribute '${name}' has no <value>`;
    // Look for a context only between </name> and <value>: searching the rest of the block for every attribute made parsing quadratic.
    const between = xml.slice(n1, v0).indexOf("<timer_context>");
    const c0 = between < 0 ? -1 : n1 + between;
    if (c0 >= 0) {
      const c1 = xml.indexOf("</timer_context>", c0);
      if (c1 < 0) return `attribute '${name}' has an unterminated <timer_context>`;
      context = decodeXmlText(xml.slice(c0 + 15, c1));
    }
    // Find the matching </value>, skipping nested attributes' values. Each search resumes where the
    // last one stopped, so the scan is linear; nesting is bounded before any recursion.
    let depth = 1;
    let j = v0 + 7;
    let v1 = -1;
    let nextOpen = xml.indexOf("<value>", j);
    while (depth > 0) {
      const close = xml.indexOf("</value>", j);
      if (close < 0) return `attribute '${name}' has an unterminated <value>`;
      if (nextOpen >= 0 && nextOpen < close) {
        depth++;
        if (depth + depthNow > MAX_NESTING) return `metadata nested deeper than ${MAX_NESTING} levels`;
        j = nextOpen + 7;
        nextOpen = xml.indexOf("<value>", j);
      } else {
        depth--;
        j = close + 8;
        if (depth === 0) v1 = close;
      }
    }
    const body = xml.slice(v0 + 7, v1);
    const full = prefix + (context !== undefined ? `${context} : ${name}` : name);
    if (body.indexOf("<attribute>") >= 0) {
      const e = parseAttributes(body, `${full}:`, out, depthNow + 1);
      if (e) return e;
    } else {
      out.push([full, decodeXmlText(body)]);
    }
    const end = xml.indexOf("</attribute>", v1);
    if (end < 0) return `attribute '${name}' is not closed by </attribute>`;
    i = end + 12;
  }
}

/** Writes name/value pairs as TAU's single-line `<metadata>` block. */
export function writeMetadataXml(pairs: Iterable<readonly [string, string]>): string {
  let s = "<metadata>";
  for (const [k, v] of pairs) s += `<attribute><name>${encodeXmlText(k)}</name><value>${encodeXmlText(v)}</value></attribute>`;
  return s + "</metadata>";
}
