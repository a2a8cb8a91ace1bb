import type { TopLevelSpec } from "vega-lite";

/** A chart of a report: a title, a caption, and a Vega-Lite specification with its data inline. */
export interface ReportChart {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  readonly spec: TopLevelSpec;
}

/**
 * Renders a Vega-Lite specification to an SVG document, in Node, with no network access (the data
 * must be inline).
 * @throws Error when the specification does not compile
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec).spec;
  const loader = vega.loader({ mode: "file" });
  // why: a report must never fetch anything; any data URL in a spec is a programming error
  loader.load = async (uri: string) => {
    throw new Error(`report charts take inline data only (asked for ${uri})`);
  };
  const view = new vega.View(vega.parse(compiled), { renderer: "none", loader });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
