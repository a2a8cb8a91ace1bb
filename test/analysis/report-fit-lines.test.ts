import { describe, expect, it } from "vitest";
import { MAX_POINTS, messagePassingChart, timeVsQBySweepChart, timeVsQChart } from "../../analysis/report/charts.js";
import { meanSdVsQChart } from "../../analysis/report/mean-sd-chart.js";
import type { RecordPoint } from "../../analysis/report/data.js";
import { fitPowerLaw } from "../../analysis/fit/index.js";

/** `n` invocations of one routine in two modes, T = c·Q^b with a deterministic scatter. */
function invocations(n: number): RecordPoint[] {
  const out: RecordPoint[] = [];
  for (let i = 0; i < n; i++) {
    const q = 1000 * (1 + (i % 40));
    const strided = i % 2 === 1;
    const wobble = 1 + 0.2 * Math.sin(i * 0.7);
    const t = (strided ? 0.004 * q ** 1.3 : 0.05 * q) * wobble;
    out.push({ routine: "K.run", q, mode: strided ? "strided" : "sequential", wallTime: t, mpiTime: 0, computeTime: t });
  }
  return out;
}

describe("time-vs-Q chart of a run", () => {
  it("draws the power law fitted to every invocation (not the embedded sample) and prints it", () => {
    const points = invocations(MAX_POINTS + 1001);
    const chart = timeVsQChart("K.run", points, "Q");
    const layers = (chart.spec as unknown as { layer: { data: { values: { Q: number; time: number; mode: string }[] } }[] }).layer;
    expect(layers[0].data.values).toHaveLength(MAX_POINTS);
    expect(chart.caption).toContain(`${MAX_POINTS} of the ${MAX_POINTS + 1001} invocations`);
    for (const mode of ["sequential", "strided"]) {
      const of = points.filter((p) => p.mode === mode);
      const model = fitPowerLaw(
        of.map((p) => p.q),
        of.map((p) => p.wallTime),
      );
      expect(chart.caption).toContain(`${mode} T = ${model.formula}`);
      const line = layers[1].data.values.filter((v) => v.mode === mode);
      expect(line.length).toBeGreaterThan(2);
      for (const v of line) expect(v.time).toBeCloseTo(model.predict(v.Q), 6);
      expect(Math.min(...line.map((v) => v.Q))).toBeCloseTo(model.range.min, 6);
      expect(Math.max(...line.map((v) => v.Q))).toBeCloseTo(model.range.max, 6);
    }
  });

  it("says every invocation is shown when they fit on the page", () => {
    const chart = timeVsQChart("K.run", invocations(100), "Q");
    expect(chart.caption).toContain("Points: 100 invocations.");
  });
});

describe("time-vs-Q chart of a study", () => {
  it("lists the fitted power laws in the swept axis's order, not the values' text order", () => {
    const rows = [262144, 1048576, 524288].flatMap((l2) => [1000, 2000, 4000].map((q) => ({ Q: q, time: (q * 1e6) / l2, swept: String(l2) })));
    const chart = timeVsQBySweepChart("K.run", rows, "Q", "machine.l2.size", ["262144", "524288", "1048576"]);
    const at = (v: string) => chart.caption.indexOf(`machine.l2.size ${v}:`);
    expect(at("262144")).toBeGreaterThan(0);
    expect(at("262144")).toBeLessThan(at("524288"));
    expect(at("524288")).toBeLessThan(at("1048576"));
  });
});

describe("fitted formulas of a chart", () => {
  it("name the records' parameter the chart is drawn against (x), as ccasim fit and the run's evidence name it, not Q", () => {
    const points = invocations(200).map((p) => ({ ...p, mpiTime: p.wallTime / 10 }));
    const charts = [
      timeVsQChart("K.run", points, "x"),
      meanSdVsQChart("K.run", points, "x")!,
      messagePassingChart(points, "x")!,
      timeVsQBySweepChart("K.run", points.map((p) => ({ Q: p.q, time: p.wallTime, swept: p.mode })), "x", "machine.l2.size"),
    ];
    for (const chart of charts) {
      expect(chart.caption).toMatch(/log\(x\)|·x/);
      expect(chart.caption).not.toMatch(/log\(Q\)|·Q|\bQ\b/);
    }
    expect(charts[2]!.title).toBe("Message passing vs x");
  });
});

describe("SVG ids of a chart", () => {
  it("stay unique in a page whose charts share an id (modes whose names differ in punctuation alone, 'b+' and 'b-', share their slug)", async () => {
    const { heatmapChart } = await import("../../analysis/report/charts.js");
    const { renderReportHtml } = await import("../../analysis/report/html.js");
    const rows = (f: number) => ["1", "2"].flatMap((a) => ["x", "y"].map((b, k) => ({ a, b, value: f * (Number(a) + k) })));
    const charts = [1, 2, 3].map((f) => heatmapChart("heatmap-wall-kernel-run-mode-b", `mode ${f}`, rows(f), "c", "d", "time (us)", { a: ["1", "2"], b: ["x", "y"] }));
    const html = await renderReportHtml({ title: "t", subtitle: "s", sections: [{ heading: "h", charts }] });
    expect([...html.matchAll(/<figure class="chart" id="([^"]+)"/g)].map((m) => m[1])).toEqual(["heatmap-wall-kernel-run-mode-b", "heatmap-wall-kernel-run-mode-b-2", "heatmap-wall-kernel-run-mode-b-3"]);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
    // A chart whose own id is what a repeat would take keeps it, wherever it stands ('b 2' slugs to b-2).
    const [first, second, third] = charts;
    const own = { ...third!, id: "heatmap-wall-kernel-run-mode-b-2" };
    for (const order of [[first!, second!, own], [own, first!, second!]]) {
      const page = await renderReportHtml({ title: "t", subtitle: "s", sections: [{ heading: "h", charts: order }] });
      expect([...page.matchAll(/<figure class="chart" id="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(["heatmap-wall-kernel-run-mode-b", "heatmap-wall-kernel-run-mode-b-2", "heatmap-wall-kernel-run-mode-b-3"]);
      const figure = page.split("<figure").find((f) => f.includes(`<b>${own.title}.</b>`))!;
      expect(figure.startsWith(' class="chart" id="heatmap-wall-kernel-run-mode-b-2"')).toBe(true);
    }
  });

  it("are renumbered after the chart in order of first use, ids and references alike, and no text is touched", async () => {
    const { stableSvgIds } = await import("../../analysis/report/render.js");
    const svg = '<linearGradient id="gradient_7"/><path fill="url(#gradient_7)"/><g clip-path="url(#clip12)"><clipPath id="clip12"/><text>clip2 gradient_3</text></g>';
    expect(stableSvgIds(svg, "c-")).toBe('<linearGradient id="c-gradient_0"/><path fill="url(#c-gradient_0)"/><g clip-path="url(#c-clip1)"><clipPath id="c-clip1"/><text>clip2 gradient_3</text></g>');
  });
});
