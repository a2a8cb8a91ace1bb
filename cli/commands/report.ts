import { basename } from "node:path";
import { defaultReportPath, writeReport } from "../../analysis/report/index.js";
import { parseCommandArgs, UsageError, type Command } from "../command.js";
import { snapshotOption } from "./analysis-io.js";

/** `ccasim report`: the self-contained HTML report of a run, a profile or a study. */
export const reportCommand: Command = {
  name: "report",
  help: `Usage: ccasim report <run-folder | profile | study.db> [--out report.html] [--snapshot <n|name>]

Writes one HTML page with every chart inline as SVG (Vega-Lite rendered in Node: no script, no
network, no CDN; open it anywhere, attach it to a mail).

For a run folder (what 'ccasim run' writes) or a TAU profile:
  - time per invocation against Q by mode, scatter and power-law fits (the papers' Figure 3)
  - the mean and standard deviation at each Q, the modes pooled, with the straight-line and
    power-law fits of the mean and the straight line of the deviation (Figures 4 and 5)
  - the strided / sequential time ratio, when records have both modes; for modes of other names
    (x and y), each mode's time over the baseline's: sequential, else the first mode by name, as
    the run's evidence compares them
  - message-passing time per invocation by AMR level (Figure 6), when records have MPI time
  - the profile's top timers (mean over threads) and their table
For a study database (what 'ccasim sweep' writes):
  - points, failures, axes; heatmaps of simulated time and of the main routines' time (the two
    of most total wall time) over the two most varied axes (a line chart for one axis); time
    against Q per swept value, for the two routines of most time whose records have Q; a routine
    whose records have a mode (a text parameter with a few values) is charted once per mode, and
    each mode's mean time over the baseline mode's (sequential, else the first by name) against
    Q, one line per swept value: where the strided / sequential ratio leaves 1 as the cache size
    changes; a study without records (a program model's) charts its three main timers instead;
    further axes give one chart per combination of their values (up to 6 panels, heatmaps on
    one colour scale), beyond that the charts average over them and their captions say so

Options:
  --out FILE     output file, named .html (or .htm). Default: beside a database (study.db ->
                 study.html), into a run folder (<folder>/report.html), and for anything else
                 (a TAU profile, a .ppk, TAU XML or .cubex file) <name>.html in the current
                 directory, not beside the measurement data (a run's own profile/:
                 <run>-profile.html; profile.0.0.0: profile.0.0.0.html). The file may not be
                 the input or a folder holding it, nor lie inside the input's folder (a run
                 folder takes only its own report.html), and its folder must be writable: all
                 checked before the report is built
  --snapshot <n|name>
                 of a TAU XML profile, the snapshot of each thread to report: an index (0 the
                 first, -1 the last, the default) or a name (name:100 for a name that is a
                 number), as 'ccasim profile show --snapshot'

Interrupted (Ctrl-C, kill), ccasim stops at once and ends by the signal (130 / 143 in a shell):
FILE is left as it was; a temporary .<FILE>.tmp-<pid>-<n> left beside it is removed by the next
report written to FILE.

Exit codes: 0 success, 2 unreadable input or bad arguments, 130/143 interrupted.`,
  async run(ctx) {
    const { values, positionals } = parseCommandArgs("report", ctx.argv, { out: { type: "string" }, snapshot: { type: "string" } });
    if (positionals.length !== 1) throw new UsageError("give one run folder, profile or study database (see ccasim report --help)", "report");
    const input = positionals[0];
    const out = (values.out as string | undefined) ?? defaultReportPath(input);
    const r = await writeReport(input, out, { snapshot: snapshotOption(values.snapshot) });
    ctx.out(`wrote ${r.file} (${r.charts} chart${r.charts === 1 ? "" : "s"}, ${r.document.sections.length} section${r.document.sections.length === 1 ? "" : "s"}) from ${basename(input)}\n`);
    return 0;
  },
};
