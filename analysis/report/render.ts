import type { TopLevelSpec } from "vega-lite";

/** A chart of a report: a title, a caption, and a Vega-Lite specification with its data inline. */
export interface ReportChart {
  /**
   * Its anchor in the page, and the prefix of its SVG's element ids (`renderReportHtml` gives a
   * chart whose id an earlier one has the first free `-2`, `-3`, ...).
   */
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  readonly spec: TopLevelSpec;
}

/**
 * Vega's SVG renderer names the gradients and clip paths it defines from counters that run on
 * through the process (`gradient_3` in the second chart a process renders): ids in order of first
 * appearance in `svg`, prefixed by `prefix`, so that a chart's SVG depends on the chart alone and
 * stays unique among the charts of one page (each with its own prefix).
 */
export function stableSvgIds(svg: string, prefix: string): string {
  const names = new Map<string, string>();
  // Only where ids stand: an id attribute and a url(#...) reference (not a label's text).
  return svg.replace(/(id="|url\(#)(gradient_|clip)(\d+)(?=[")])/g, (_whole: string, at: string, kind: string, n: string) => {
    const old = kind + n;
    let name = names.get(old);
    if (name === undefined) names.set(old, (name = `${prefix}${kind}${names.size}`));
    return at + name;
  });
}

/**
 * Renders a Vega-Lite specification to an SVG document, in Node, with no network access (the data
 * must be inline); the ids it defines are `idPrefix` and a number ({@link stableSvgIds}).
 * @throws Error when the specification does not compile
 */
export async function renderSvg(spec: TopLevelSpec, idPrefix = ""): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec).spec;
  const loader = vega.loader({ mode: "file" });
  // why: a report must never fetch anything; any data URL in a spec is a programming error
  loader.load = async (uri: string) => {
    throw new Error(`report charts take inline data only (asked for ${uri})`);
  };
  const view = new vega.View(vega.parse(compiled), { renderer: "none", loader });
  try {
    return stableSvgIds(await view.toSVG(), idPrefix);
  } finally {
    view.finalize();
  }
}
