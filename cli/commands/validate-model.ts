import { formatValidationReport, readMeasuredTable, validateModel } from "../../scenarios/index.js";
import { parseCommandArgs, UsageError, type Command } from "../command.js";
import { positiveIntegerOption } from "./analysis-io.js";

export const validateModelCommand: Command = {
  name: "validate-model",
  help: `Usage: ccasim validate-model <model.yaml> --measured <table.csv|table.yaml> [--set key=value ...] [--repeats N] [--json]

Runs the scenario once per configuration of the measured table (each row's override columns
applied as --set) and prints, as Table 5.1 of paper 003: the simulated time T_s, the measured
time T_m, the error |T_s - T_m| / T_m, the evaluation time T_e (CPU seconds of the simulation,
best of --repeats runs without measurement, after one untimed run of every configuration) and
T_m/T_e; then the mean and largest error. Times are in seconds, or in ms or us when the runs are
shorter than a second.

Table (CSV, cells may be quoted): '#' comment lines, a header with 'measured' (times with
units, e.g. 264s), optional 'name', 'reference' (another prediction to show, e.g. the paper's
T_s) and 'calibrated' (yes for the rows the model's coefficients were fitted to: their errors are
then reported as a fit, and the other rows' errors apart as predictions), one column per scenario
key to override (workload.NAT, machine.nodes, ...), and at least one row. YAML: configurations:
[{ name, set: { key: value }, measured: 264s, reference: 280s, calibrated: true }].

Example:
  ccasim validate-model scenarios/lapw0.yaml --measured scenarios/lapw0-measured.csv

Options:
  --measured FILE   the measured-times table (required)
  --set key=value   override applied to every configuration (repeatable)
  --repeats N       runs per configuration for T_e (default 3)
  --json            print the report as JSON (times in seconds, as the table: see its "unit")

Exit codes: 0 success (the model's warnings and messages left unreceived are printed), 1 a
simulated failure (a deadlock), 2 invalid model, table or arguments (a run-time error of the model
is located at its element).`,
  run(ctx) {
    const { values, positionals } = parseCommandArgs("validate-model", ctx.argv, {
      measured: { type: "string" },
      set: { type: "string", multiple: true },
      repeats: { type: "string" },
      json: { type: "boolean" },
    });
    if (positionals.length !== 1) throw new UsageError("give exactly one model scenario file", "validate-model");
    if (values.measured === undefined) throw new UsageError("--measured <table> is required", "validate-model");
    const repeats = positiveIntegerOption("validate-model", "repeats", values.repeats, 3)!;
    const table = readMeasuredTable(String(values.measured));
    const report = validateModel(positionals[0], table, { repeats, set: (values.set as string[] | undefined) ?? [] });
    for (const w of report.warnings) ctx.err(`warning: ${w}\n`);
    if (values.json) ctx.out(JSON.stringify(report, null, 2) + "\n");
    else ctx.out(`${report.model} against ${values.measured}:\n\n${formatValidationReport(report)}`);
    return 0;
  },
};
