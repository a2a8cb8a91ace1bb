import { fractionText } from "../number-text.js";
import { renderSvg, type ReportChart } from "./render.js";

/** A table of a report. */
export interface ReportTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number)[])[];
}

/** A section of a report: a heading, notes, tables and charts. */
export interface ReportSection {
  readonly heading: string;
  readonly notes?: readonly string[];
  readonly tables?: readonly ReportTable[];
  readonly charts?: readonly ReportChart[];
}

/** A report before rendering. */
export interface ReportDocument {
  readonly title: string;
  readonly subtitle: string;
  readonly sections: readonly ReportSection[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Narrow no-break space: the SI digit group separator, the same in every locale. */
const DIGIT_GROUP = "\u202f";

/** Report tables: 6 significant digits, exponent form below 1e-4. */
const REPORT_DIGITS = { digits: 6, exponentBelow: 1e-4 };

/**
 * A table cell: an integer whole; a fraction to 6 significant digits, or to one decimal when its
 * integer part has more digits, and always with a decimal point (555465999.7, never 555466000,
 * which would read as an exact integer); the integer part in groups of three digits when it has
 * five or more.
 */
export function tableCellText(v: string | number): string {
  if (typeof v !== "number") return v;
  const text = Number.isInteger(v) || !Number.isFinite(v) ? String(v) : fractionText(v, REPORT_DIGITS);
  const m = /^(-?)(\d{5,})(\.\d+)?$/.exec(text);
  return m === null ? text : m[1]! + m[2]!.replace(/\B(?=(\d{3})+$)/g, DIGIT_GROUP) + (m[3] ?? "");
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.subtitle{color:#666;margin-top:0}figure{margin:1rem 0 2rem}figcaption{color:#555;font-size:.9rem;max-width:700px}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1rem}th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f4f4f4}nav a{margin-right:1rem}.chart svg{max-width:100%;height:auto}`;

/**
 * The id each chart of `doc` takes in its page, asked for in the charts' order: a chart's own id
 * the first time, then its first free `-2`, `-3`, ... (free among every chart's own id too).
 * Why: two routines or modes whose names differ in punctuation alone (`b+`, `b-`) share a slug,
 * and a repeated id would repeat the element ids of its SVG as well.
 */
function pageChartIds(doc: ReportDocument): (id: string) => string {
  const taken = new Set(doc.sections.flatMap((s) => (s.charts ?? []).map((c) => c.id)));
  const given = new Set<string>();
  return (id) => {
    let out = id;
    for (let k = 2; given.has(out) || (out !== id && taken.has(out)); k++) out = `${id}-${k}`;
    given.add(out);
    return out;
  };
}

/**
 * Renders a report to one self-contained HTML page: every chart an inline SVG, no script, no
 * external resource.
 */
export async function renderReportHtml(doc: ReportDocument): Promise<string> {
  const parts: string[] = [];
  const nav: string[] = [];
  const pageId = pageChartIds(doc);
  for (const [i, sec] of doc.sections.entries()) {
    const anchor = `s${i}`;
    nav.push(`<a href="#${anchor}">${esc(sec.heading)}</a>`);
    parts.push(`<section id="${anchor}"><h2>${esc(sec.heading)}</h2>`);
    for (const n of sec.notes ?? []) parts.push(`<p>${esc(n)}</p>`);
    for (const t of sec.tables ?? []) {
      const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join("");
      const body = t.rows.map((r) => `<tr>${r.map((v) => `<td${typeof v === "number" ? ' class="n"' : ""}>${esc(tableCellText(v))}</td>`).join("")}</tr>`).join("\n");
      parts.push(`<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`);
    }
    for (const c of sec.charts ?? []) {
      const id = pageId(c.id);
      // Ids by chart: the same chart renders the same SVG, whatever was rendered before it.
      const svg = await renderSvg(c.spec, `${id}-`);
      parts.push(`<figure class="chart" id="${esc(id)}" data-chart="${esc(id)}">${svg}<figcaption><b>${esc(c.title)}.</b> ${esc(c.caption)}</figcaption></figure>`);
    }
    parts.push(`</section>`);
  }
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(doc.title)}</h1><p class="subtitle">${esc(doc.subtitle)}</p><nav>${nav.join("")}</nav>
${parts.join("\n")}
<footer><p class="subtitle">Written by ccasim report. Charts: Vega-Lite rendered to SVG.</p></footer>
</body></html>
`;
}
