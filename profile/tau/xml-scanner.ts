/**
 * A pull scanner of the XML that TAU's profile writers produce (`TauSnapshot.cpp`,
 * `TauProfileMerge.cpp`, Score-P's TAU snapshot writer): elements with quoted attributes, text
 * with the predefined entities and character references, CDATA sections, comments, processing
 * instructions and a DOCTYPE, which it skips. It checks that end tags match their start tags, and
 * names the line of what is malformed. Not a general XML parser: no namespaces, no DTD entities,
 * and any number of top-level elements (TAU concatenates one `<profile_xml>` document per thread
 * into one file, which ParaProf reads by wrapping them in a root).
 *
 * @packageDocumentation
 */
import { decodeXmlText } from "./xml.js";

/** What {@link XmlScanner.next} found. */
export const XML_START = 1;
/** See {@link XML_START}. */
export const XML_END = 2;
/** See {@link XML_START}. */
export const XML_TEXT = 3;
/** See {@link XML_START}: the input is over. */
export const XML_EOF = 0;

/** Where a token is, and what is wrong there. */
export class XmlSyntaxError extends Error {
  constructor(
    /** 1-based line. */
    readonly line: number,
    /** What is wrong, without the line. */
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = "XmlSyntaxError";
  }
}

/**
 * Scans `text` token by token. After {@link next} returns {@link XML_START}, `name` and `attributes`
 * describe the element (`selfClosing` when it was written `<a/>`, which also yields its
 * {@link XML_END}); after {@link XML_END}, `name`; after {@link XML_TEXT}, `text` holds the
 * decoded character data (CDATA verbatim) up to the next tag. `start` is where the token began.
 */
export class XmlScanner {
  private pos = 0;
  private readonly open: string[] = [];
  private pendingEnd = false;
  private lineStarts: Int32Array | undefined;
  /** Element name of the last start or end tag. */
  name = "";
  /** Attributes of the last start tag, in the order written. */
  attributes = new Map<string, string>();
  /** Whether the last start tag closed itself. */
  selfClosing = false;
  /** Decoded text of the last text token. */
  text = "";
  /** Offset in the input of the last token. */
  start = 0;

  constructor(private readonly input: string) {
    // A byte order mark is not text.
    if (input.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  /** The 1-based line of offset `at` of the input. */
  lineAt(at: number): number {
    if (this.lineStarts === undefined) {
      const starts: number[] = [0];
      for (let i = this.input.indexOf("\n"); i >= 0; i = this.input.indexOf("\n", i + 1)) starts.push(i + 1);
      this.lineStarts = Int32Array.from(starts);
    }
    const s = this.lineStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Throws an {@link XmlSyntaxError} at offset `at`. */
  fail(detail: string, at = this.start): never {
    throw new XmlSyntaxError(this.lineAt(at), detail);
  }

  /** The next token: {@link XML_START}, {@link XML_END}, {@link XML_TEXT} or {@link XML_EOF}. */
  next(): number {
    if (this.pendingEnd) {
      this.pendingEnd = false;
      this.open.pop();
      return XML_END;
    }
    const s = this.input;
    for (;;) {
      if (this.pos >= s.length) {
        if (this.open.length > 0) this.fail(`the input ends inside <${this.open[this.open.length - 1]}> (no </${this.open[this.open.length - 1]}>)`, s.length);
        return XML_EOF;
      }
      this.start = this.pos;
      if (s.charCodeAt(this.pos) !== 60 /* < */) return this.scanText();
      if (s.startsWith("<![CDATA[", this.pos)) return this.scanText();
      if (s.startsWith("<!--", this.pos)) {
        this.pos = this.after("-->", this.pos + 4, "a comment");
        continue;
      }
      if (s.startsWith("<?", this.pos)) {
        this.pos = this.after("?>", this.pos + 2, "a processing instruction");
        continue;
      }
      if (s.startsWith("<!", this.pos)) {
        this.pos = this.after(">", this.pos + 2, "a declaration");
        continue;
      }
      if (s.charCodeAt(this.pos + 1) === 47 /* / */) return this.scanEnd();
      return this.scanStart();
    }
  }

  /** Offset just past `close`, searched from `from`. */
  private after(close: string, from: number, what: string): number {
    const at = this.input.indexOf(close, from);
    if (at < 0) this.fail(`${what} is not closed ('${close}')`);
    return at + close.length;
  }

  /** Character data (and CDATA sections) up to the next tag. */
  private scanText(): number {
    const s = this.input;
    let out = "";
    let from = this.pos;
    for (;;) {
      const lt = s.indexOf("<", from);
      const end = lt < 0 ? s.length : lt;
      out += decodeXmlText(s.slice(from, end));
      if (lt >= 0 && s.startsWith("<![CDATA[", lt)) {
        const close = s.indexOf("]]>", lt + 9);
        if (close < 0) this.fail("a CDATA section is not closed (']]>')", lt);
        out += s.slice(lt + 9, close);
        from = close + 3;
        continue;
      }
      this.pos = end;
      break;
    }
    this.text = out;
    return XML_TEXT;
  }

  private scanEnd(): number {
    const s = this.input;
    const close = s.indexOf(">", this.pos);
    if (close < 0) this.fail("an end tag is not closed ('>')");
    const name = s.slice(this.pos + 2, close).trim();
    const top = this.open.pop();
    if (top === undefined) this.fail(`</${name}> closes no open element`);
    if (top !== name) this.fail(`</${name}> where </${top}> was expected`);
    this.name = name;
    this.pos = close + 1;
    return XML_END;
  }

  private scanStart(): number {
    const s = this.input;
    let i = this.pos + 1;
    const nameStart = i;
    while (i < s.length && !isNameEnd(s.charCodeAt(i))) i++;
    if (i === nameStart) this.fail(`'<' that starts no element (${JSON.stringify(s.slice(this.pos, this.pos + 20))})`);
    this.name = s.slice(nameStart, i);
    this.attributes = new Map();
    for (;;) {
      while (i < s.length && isSpace(s.charCodeAt(i))) i++;
      if (i >= s.length) this.fail(`<${this.name}> is not closed ('>')`);
      const c = s.charCodeAt(i);
      if (c === 62 /* > */) {
        this.selfClosing = false;
        i++;
        break;
      }
      if (c === 47 /* / */ && s.charCodeAt(i + 1) === 62) {
        this.selfClosing = true;
        i += 2;
        break;
      }
      const keyStart = i;
      while (i < s.length && !isNameEnd(s.charCodeAt(i)) && s.charCodeAt(i) !== 61 /* = */) i++;
      const key = s.slice(keyStart, i);
      while (i < s.length && isSpace(s.charCodeAt(i))) i++;
      if (key === "" || s.charCodeAt(i) !== 61) this.fail(`malformed attribute in <${this.name}> (expected name="value")`);
      i++;
      while (i < s.length && isSpace(s.charCodeAt(i))) i++;
      const quote = s.charCodeAt(i);
      if (quote !== 34 && quote !== 39) this.fail(`the value of attribute '${key}' of <${this.name}> is not quoted`);
      const close = s.indexOf(String.fromCharCode(quote), i + 1);
      if (close < 0) this.fail(`the value of attribute '${key}' of <${this.name}> is not closed`);
      this.attributes.set(key, decodeXmlText(s.slice(i + 1, close)));
      i = close + 1;
    }
    this.pos = i;
    this.open.push(this.name);
    if (this.selfClosing) this.pendingEnd = true;
    return XML_START;
  }

  /**
   * Skips the content of the element just started, to its end tag (which is consumed): the
   * content's raw text is returned (undefined for a self-closing element). For blocks parsed
   * elsewhere (TAU's `<metadata>`) or ignored.
   */
  skipElement(): string | undefined {
    if (this.pendingEnd) {
      this.next();
      return undefined;
    }
    const name = this.name;
    const from = this.pos;
    let nested = 0;
    for (;;) {
      const kind = this.next();
      if (kind === XML_START && this.name === name) nested++;
      else if (kind === XML_END && this.name === name) {
        if (nested === 0) return this.input.slice(from, this.start);
        nested--;
      } else if (kind === XML_EOF) this.fail(`<${name}> is not closed`, from);
    }
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether `c` ends an element or attribute name. */
function isNameEnd(c: number): boolean {
  return isSpace(c) || c === 62 /* > */ || c === 47 /* / */;
}
