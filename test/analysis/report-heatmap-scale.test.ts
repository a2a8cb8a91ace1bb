import { describe, expect, it } from "vitest";
import { heatmapChart, renderSvg } from "../../analysis/report/index.js";

/** The colour scale a heatmap's spec gives its cells. */
function colourScale(values: readonly number[]): { caption: string; scale: unknown } {
  const rows = values.map((value, i) => ({ a: String(i), b: "x", value }));
  const chart = heatmapChart("h", "H", rows, "a", "b", "time (us)", { a: rows.map((r) => r.a), b: ["x"] });
  const layer = (chart.spec as unknown as { layer: { encoding: { color: { scale?: unknown } } }[] }).layer[0]!;
  return { caption: chart.caption, scale: layer.encoding.color.scale };
}

describe("a study heatmap's caption", () => {
  it("names the other swept parameters its cells average over, with their values", () => {
    const rows = [{ a: "1", b: "x", value: 2 }];
    const chart = heatmapChart("h", "H", rows, "Q", "size", "time (us)", { a: ["1"], b: ["x"] }, { averaged: [{ name: "pattern", values: ["sequential", "strided"] }] });
    expect(chart.caption).toBe("Mean time (us) for each combination of Q and size (over replications and every value of pattern (sequential, strided), which the cells mix).");
    expect(heatmapChart("h", "H", rows, "Q", "size", "time (us)", { a: ["1"], b: ["x"] }).caption).toBe("Mean time (us) for each combination of Q and size (over replications).");
  });
});

describe("a study heatmap's colours", () => {
  it("take a log scale when the values span two orders of magnitude or more, and say so", () => {
    const wide = colourScale([111, 5_000, 6.5e6]);
    expect(wide.scale).toEqual({ scheme: "viridis", type: "log" });
    expect(wide.caption).toMatch(/; colours on a log scale\.$/);
  });

  it("follow a domain shared by a measure's panels, and the caption says which values the panel holds", () => {
    const rows = [{ a: "1", b: "x", value: 20 }];
    const chart = heatmapChart("h", "H", rows, "Q", "size", "time (us)", { a: ["1"], b: ["x"] }, { at: [{ name: "preset", value: "xeon" }], domain: [10, 5000] });
    const layer = (chart.spec as unknown as { layer: { encoding: { color: { scale?: unknown } } }[] }).layer[0]!;
    // The panel's own value spans nothing; the shared domain spans 500x: a log scale over it.
    expect(layer.encoding.color.scale).toEqual({ scheme: "viridis", type: "log", domain: [10, 5000] });
    expect(chart.caption).toBe("Mean time (us) for each combination of Q and size (over replications; at preset = xeon); colours on a log scale; colours on one scale with the other panels.");
  });

  it("stay linear for a narrow range, or when a value is zero or negative", () => {
    expect(colourScale([10, 20, 900]).scale).toEqual({ scheme: "viridis" });
    expect(colourScale([0, 20, 9e6]).scale).toEqual({ scheme: "viridis" });
  });
});

describe("a study heatmap's cell labels", () => {
  /** The values printed in the rendered cells of a heatmap of `columns` x `rowCount` cells, and its caption. */
  async function cellTexts(columns: number, rowCount: number): Promise<{ texts: string[]; caption: string }> {
    const a = Array.from({ length: columns }, (_, i) => String(i + 1));
    const b = Array.from({ length: rowCount }, (_, i) => `r${i}`);
    const rows = a.flatMap((x) => b.map((y) => ({ a: x, b: y, value: 1000 + Number(x) })));
    const chart = heatmapChart("h", "H", rows, "a", "b", "time (us)", { a, b });
    const svg = await renderSvg(chart.spec);
    return { texts: [...svg.matchAll(/<text[^>]*aria-roledescription="text mark"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!), caption: chart.caption };
  }

  it("print each cell's value when the cells are wide and tall enough to hold it", async () => {
    const ten = await cellTexts(10, 4);
    expect(ten.texts).toHaveLength(40);
    expect(ten.caption).not.toContain("too small");
  });

  it("are left out of cells too narrow or too low to hold them, where they would print over each other, and the caption says so", async () => {
    for (const [columns, rowCount] of [[30, 2], [4, 30]] as const) {
      const { texts, caption } = await cellTexts(columns, rowCount);
      expect(texts).toEqual([]);
      expect(caption).toMatch(/; the cells are too small to print their values in\.$/);
    }
  });
});

describe("a study heatmap's colour legend", () => {
  /** The texts of the rendered chart's colour legend: its labels, and its description. */
  async function legend(values: readonly number[], domain?: [number, number]): Promise<{ labels: string[]; description: string }> {
    const rows = values.map((value, i) => ({ a: String(i), b: "x", value }));
    const svg = await renderSvg(heatmapChart("h", "H", rows, "a", "b", "time (us)", { a: rows.map((r) => r.a), b: ["x"] }, domain ? { domain } : {}).spec);
    const start = svg.indexOf('aria-label="Colour legend');
    const description = /aria-label="([^"]*)"/.exec(svg.slice(start))![1]!;
    const labels = [...svg.slice(start).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!).filter((t) => t !== "time (us)");
    return { labels, description };
  }

  it("labels the ends of a log scale as the report's tables write numbers", async () => {
    const l = await legend([2.37326777918, 40.5, 1989.08877677]);
    expect(l.labels.slice(0, 2)).toEqual(["2.37327", "1989.09"]);
    expect(l.description).toBe("Colour legend of time (us), from 2.37327 to 1989.09");
  });

  it("labels the ends of a linear scale, and of a domain shared by panels, the same way", async () => {
    expect((await legend([23.7625800466, 12560.0319646])).labels.slice(0, 2)).toEqual(["23.7626", "12\u202f560.0"]);
    expect((await legend([20], [10.123456789, 5000.98765432])).labels.slice(0, 2)).toEqual(["10.1235", "5000.99"]);
    expect((await legend([7.5, 7.5])).labels[0]).toBe("7.5");
  });
});
