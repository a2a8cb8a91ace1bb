import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../analysis/report/index.js";
import { writeRecordsJsonl, type InvocationRecord } from "../../profile/index.js";
import { RandomStream } from "../../engine/random.js";
import { runScenario } from "../../scenarios/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const ARTIFACTS = resolve("test-artifacts");
const dir = mkdtempSync(join(tmpdir(), "ccasim-report-"));
let browser: Browser;

/**
 * Records shaped like the shock/AMR proxies' (paper 000): StatesConstructor and EFMFlux with Q and
 * mode, T = exp(1.19 log Q - 3.68) sequential and about 4x strided past the cache, with noise; and
 * AMRMesh.ghost with a level and MPI time.
 */
function shockLikeRecords(): InvocationRecord[] {
  const rng = new RandomStream(3, "report fixture");
  const out: InvocationRecord[] = [];
  let start = 0;
  for (let rep = 0; rep < 6; rep++) {
    for (const Q of [1e3, 3e3, 1e4, 3e4, 1e5, 3e5]) {
      for (const mode of ["sequential", "strided"]) {
        for (const [component, scale] of [["StatesConstructor", 1], ["EFMFlux", 0.6]] as const) {
          const base = Math.exp(1.19 * Math.log(Q) - 3.68) * scale * (mode === "strided" ? (Q > 3e4 ? 4 : 1.3) : 1);
          const t = base * (1 + 0.1 * (rng.next() - 0.5));
          out.push({ component, port: "compute", method: "compute", rank: rep % 3, parameters: { Q, mode }, start, wallTime: t, mpiTime: 0, computeTime: t, counters: {} });
          start += t;
        }
      }
    }
    for (const level of [0, 1, 2]) {
      for (let k = 0; k < 4; k++) {
        const mpi = 200 * (level + 1) * (1 + 0.3 * rng.next());
        out.push({ component: "AMRMesh", port: "ghost", method: "update", rank: rep % 3, parameters: { level, epoch: k }, start, wallTime: mpi + 20, mpiTime: mpi, computeTime: 20, counters: {} });
        start += mpi + 20;
      }
    }
  }
  return out;
}

async function openReport(file: string, screenshot?: string) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  const requests: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const charts = await page.$$eval("figure.chart", (figs) =>
    figs.map((f) => {
      const svg = f.querySelector("svg");
      const marks = svg ? svg.querySelectorAll("g.role-mark > *, g[class*='role-mark'] path, g[class*='role-mark'] rect").length : 0;
      const box = svg?.getBoundingClientRect();
      return { id: f.id, svg: svg !== null, marks, width: box?.width ?? 0, height: box?.height ?? 0 };
    }),
  );
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await page.close();
  return { errors, charts, requests };
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("HTML reports in headless Chromium", () => {
  it("renders the shock-like run report: time vs Q by mode with fits, mean and standard deviation, strided/sequential ratio, per-level message passing", async () => {
    const run = join(dir, "shock-like");
    mkdirSync(run, { recursive: true });
    writeRecordsJsonl(shockLikeRecords(), join(run, "records.jsonl"));
    writeFileSync(join(run, "summary.json"), JSON.stringify({ scenario: "shock-like records" }));
    const out = join(dir, "shock-like.html");
    const r = await writeReport(run, out);
    expect(r.charts).toBe(6);
    const page = await openReport(out, join(ARTIFACTS, "report.png"));
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([]);
    expect(page.charts.map((c) => c.id).sort()).toEqual([
      "mean-sd-vs-q-efmflux-compute",
      "mean-sd-vs-q-statesconstructor-compute",
      "message-passing-levels",
      "strided-ratio",
      "time-vs-q-efmflux-compute",
      "time-vs-q-statesconstructor-compute",
    ]);
    for (const c of page.charts) {
      expect(c.svg, c.id).toBe(true);
      expect(c.marks, c.id).toBeGreaterThan(3);
      expect(c.width * c.height, c.id).toBeGreaterThan(10_000);
    }
  });

  it("renders a simulated run's report with its profile's top timers, power and energy", async () => {
    const metrics = "metrics=[TIME,PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_TCA,PAPI_L2_TCA,PAPI_FP_OPS]";
    // On the Itanium 2, the processor the report's power model describes.
    const run = runScenario("scenarios/known-models.yaml", { out: join(dir, "known-models"), set: ["workload.iterations=10", metrics, "machine.preset=itanium2-madison"] });
    const out = join(dir, "known-models.html");
    await writeReport(run.outDir, out);
    const page = await openReport(out, join(ARTIFACTS, "run-report.png"));
    expect(page.errors).toEqual([]);
    expect(page.charts.map((c) => c.id)).toEqual(expect.arrayContaining(["top-timers", "power-energy"]));
    for (const c of page.charts) expect(c.marks, c.id).toBeGreaterThan(3);
  });

  it("renders the shock-neuronic report with the papers' figures (screenshot in test-artifacts)", async () => {
    const run = runScenario("scenarios/shock-neuronic.yaml", { out: join(dir, "shock-neuronic") });
    const out = join(dir, "shock-neuronic.html");
    await writeReport(run.outDir, out);
    const page = await openReport(out, join(ARTIFACTS, "shock-neuronic-report.png"));
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([]);
    expect(page.charts.map((c) => c.id)).toEqual(
      expect.arrayContaining(["time-vs-q-statesconstructor-compute", "time-vs-q-efmflux-compute", "mean-sd-vs-q-statesconstructor-compute", "mean-sd-vs-q-efmflux-compute", "strided-ratio", "message-passing-levels", "top-timers"]),
    );
    for (const c of page.charts) {
      expect(c.svg, c.id).toBe(true);
      expect(c.marks, c.id).toBeGreaterThan(3);
    }
  });

  it("renders a study's heatmaps and time vs Q across the sweep", async () => {
    const db = join(dir, "study.db");
    await runSweep(loadSweep("test/scenarios/sweeps/small.sweep.yaml"), { db });
    const out = join(dir, "study.html");
    const r = await writeReport(db, out);
    expect(r.charts).toBeGreaterThanOrEqual(3);
    const page = await openReport(out, join(ARTIFACTS, "study-report.png"));
    expect(page.errors).toEqual([]);
    expect(page.charts.filter((c) => c.id.startsWith("heatmap-")).length).toBeGreaterThanOrEqual(2);
    for (const c of page.charts) {
      expect(c.svg, c.id).toBe(true);
      expect(c.marks, c.id).toBeGreaterThan(3);
    }
  });
});
