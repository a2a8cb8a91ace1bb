import type { CommandEntry } from "../command.js";

/**
 * Every `ccasim` subcommand, in the order `ccasim --help` lists them, each loaded only when it
 * runs or its help is asked for (see {@link CommandEntry}). A new subcommand is a file in this
 * folder exporting a `Command`, plus one line here.
 */
export const commands: readonly CommandEntry[] = [
  { name: "run", summary: "run a scenario and write its TAU profile, records, call graph and summary", load: async () => (await import("./run.js")).runCommand },
  { name: "validate", summary: "check a scenario, or load every point of a sweep file, without running it", load: async () => (await import("./validate.js")).validateCommand },
  { name: "validate-model", summary: "compare a model's predicted times with measured times, configuration by configuration", load: async () => (await import("./validate-model.js")).validateModelCommand },
  { name: "presets", summary: "list the machine and interconnect presets, or print one preset's parameters with their sources", load: async () => (await import("./presets.js")).presetsCommand },
  { name: "schema", summary: "print the JSON Schema of scenario (or sweep) files, for editor completion and checking", load: async () => (await import("./schema.js")).schemaCommand },
  { name: "profile", summary: "show a TAU, ParaProf or CUBE4 profile as a pprof-style table, compare two, or convert between profile formats", load: async () => (await import("./profile.js")).profileCommand },
  { name: "fit", summary: "fit performance models T(Q) (polynomial, power law, Extra-P PMNF, two-segment) to measurements", load: async () => (await import("./fit.js")).fitCommand },
  { name: "prune", summary: "find the core components of a call graph (alpha/beta pruning of paper 002)", load: async () => (await import("./prune.js")).pruneCommand },
  { name: "select", summary: "choose the best implementation per component (exact optimum, pruned heuristic, crossovers)", load: async () => (await import("./select.js")).selectCommand },
  { name: "power", summary: "power, energy, FLOP/J and stall metrics per event from hardware counters (paper 004)", load: async () => (await import("./power.js")).powerCommand },
  { name: "sweep", summary: "run a parameter sweep into a study database (parallel, resumable, Slurm arrays)", load: async () => (await import("./sweep.js")).sweepCommand },
  { name: "query", summary: "query a study database with SQL; export results to Parquet or CSV", load: async () => (await import("./query.js")).queryCommand },
  { name: "report", summary: "write a self-contained HTML report (SVG charts) of a run folder, a profile or a study database", load: async () => (await import("./report.js")).reportCommand },
];
