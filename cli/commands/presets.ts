import { didYouMean } from "../../engine/registry.js";
import { type ParamDoc } from "../../engine/index.js";
import {
  COLLECTIVES,
  backgroundLoadModels,
  LEVEL_KEYS,
  MACHINE_PARAMS,
  collectiveAlgorithms,
  collectiveParams,
  interconnectPresets,
  machineParam,
  machinePresets,
  pointToPointModels,
  presetModelParams,
  presetParameters,
  type InterconnectPreset,
  type MachinePreset,
  type PresetParameter,
} from "../../machine/index.js";
import { formatQuantity } from "../../scenarios/lang/index.js";
import { parseCommandArgs, UsageError, type Command } from "../command.js";
import { formatTable, toJson } from "./analysis-io.js";

const HELP = `ccasim presets: the machine and interconnect presets a scenario can name, with their sources

Usage:
  ccasim presets                 list the machine presets, interconnect presets and network models
  ccasim presets <name>          every parameter of one preset: value, meaning and source
  ccasim presets <name> --json   the same as JSON

A scenario names a machine preset as machine.preset and an interconnect preset as
machine.network.preset. Every key of a machine preset can be overridden, in the scenario
  machine: { preset: itanium2-madison, l2: { size: 512KiB }, computeEfficiency: 0.4 }
or on the command line
  ccasim run scenario.yaml --set machine.l2.size=512KiB
and a cache level removed with null (l3: null). A key whose source says it equals another
(the remote memory of a distributed-memory node, equal to its local memory) follows an override
of that key unless it is set too. Values marked [calibrated] were tuned to
reproduce a paper's observation or assumed, not read from a datasheet; keys a preset leaves
out (a level's sector, which is then its line; memory.size, none unless given) are listed with
their default, marked [default].

Options:
  --json     print JSON (the list, or one preset)
  -h, --help show this help`;

/** One machine parameter of a preset, as printed: {@link presetParameters}' with the value's text. */
type PrintedParameter = PresetParameter & {
  /** The value with its unit, as a scenario may write it. */
  readonly text: string;
};

/** The parameters of `preset` (see {@link presetParameters}), each with its value's text. */
function machineParameters(preset: MachinePreset): PrintedParameter[] {
  // Fields in the order `--json` has always written them.
  return presetParameters(preset).map((p) => ({
    key: p.key,
    value: p.value,
    text: p.defaulted && p.value === null ? UNSET_TEXT : quantityText(p.value, machineParam(p.key)!),
    meaning: p.meaning,
    source: p.source,
    calibrated: p.calibrated,
    defaulted: p.defaulted,
  }));
}

/** The text of a key that has no value unless a scenario gives one (`memory.size`): none a scenario writes. */
const UNSET_TEXT = "(not set)";

/** A machine value with its unit, as a scenario may write it. */
function quantityText(value: unknown, p: { type: string; dimension?: Parameters<typeof formatQuantity>[1] }): string {
  return typeof value === "number" && p.type === "quantity" && p.dimension !== undefined ? formatQuantity(value, p.dimension) : String(value);
}

function describeMachine(preset: MachinePreset, json: boolean): string {
  const parameters = machineParameters(preset);
  const absent = LEVEL_KEYS.filter((k) => preset.config[k] === undefined || preset.config[k] === null);
  if (json) return toJson({ kind: "machine", name: preset.name, summary: preset.summary, absentLevels: absent, interconnect: preset.interconnect ?? null, parameters });
  const lines = [`${preset.name} (machine preset): ${preset.summary}`, ""];
  for (const p of parameters) {
    lines.push(`${p.key} = ${p.text}${p.calibrated ? "  [calibrated]" : p.defaulted ? "  [default]" : ""}`, `    ${p.meaning}`, `    source: ${p.source}`);
  }
  if (absent.length > 0) lines.push("", `No ${absent.join(", ")}; a scenario adds a level by giving its size, line, assoc and latency (machine.${absent[0]}.size and so on).`);
  if (preset.interconnect !== undefined) lines.push("", `Interconnect when machine.network names none: ${preset.interconnect.preset} ('ccasim presets ${preset.interconnect.preset}')`, `    source: ${preset.interconnect.source}`);
  return lines.join("\n");
}

function describeInterconnect(preset: InterconnectPreset, json: boolean): string {
  const models = pointToPointModels.names().map((model) => ({ model, parameters: presetModelParams(preset, model) }));
  if (json) return toJson({ kind: "interconnect", name: preset.name, summary: preset.summary, alpha: preset.alpha, bandwidth: preset.bandwidth, source: preset.source, models });
  const show = (name: string, v: number) => `${name} ${formatQuantity(v, name === "bandwidth" ? "bandwidth" : "time")}`;
  return [
    `${preset.name} (interconnect preset): ${preset.summary}`,
    "",
    `alpha = ${formatQuantity(preset.alpha, "time")}      (short-message MPI latency)`,
    `bandwidth = ${formatQuantity(preset.bandwidth, "bandwidth")}  (per direction)`,
    `source: ${preset.source}`,
    "",
    "What each point-to-point model (machine.network.model) takes from it:",
    ...models.map((m) => `  ${m.model}: ${Object.entries(m.parameters).map(([k, v]) => show(k, v)).join(", ")}`),
    "(a scenario overrides them under machine.network.params, e.g. --set machine.network.params.alpha=5us)",
  ].join("\n");
}

function listAll(json: boolean): string {
  const machines = machinePresets.all().map((p) => ({ name: p.name, summary: p.summary }));
  const networks = interconnectPresets.all().map((p) => ({ name: p.name, summary: p.summary }));
  const models = pointToPointModels.all().map((p) => ({ name: p.name, summary: p.summary, params: p.params.map((d) => d.name) }));
  const loads = backgroundLoadModels.all();
  const paramJson = (docs: readonly ParamDoc[]) => docs.map((p) => ({ name: p.name, dimension: p.dimension ?? null, default: p.default, doc: p.doc }));
  const collectives = COLLECTIVES.map((c) => ({ collective: c, algorithms: collectiveAlgorithms[c].names() }));
  if (json)
    return toJson({
      machine: machines,
      interconnect: networks,
      pointToPointModels: models,
      backgroundLoadModels: loads.map((m) => ({ name: m.name, summary: m.summary, params: paramJson(m.params) })),
      collectives,
      collectiveParams: paramJson(collectiveParams),
    });
  const rows = (xs: { name: string; summary: string }[]) => xs.map((x) => [x.name, x.summary]);
  return [
    "Machine presets (machine.preset):",
    formatTable(["name", "summary"], rows(machines)),
    "",
    "Interconnect presets (machine.network.preset):",
    formatTable(["name", "summary"], rows(networks)),
    "",
    "Point-to-point models (machine.network.model; parameters under machine.network.params, the preset's by default):",
    formatTable(["name", "parameters", "summary"], models.map((m) => [m.name, m.params.join(", "), m.summary])),
    "",
    "Background load (machine.network.load: { model, params }; default none):",
    formatTable(
      ["model", "parameter", "default", "meaning"],
      loads.flatMap((m) => (m.params.length === 0 ? [[m.name, "", "", m.summary]] : m.params.map((p, i) => [i === 0 ? m.name : "", p.name, quantityText(p.default, p), p.doc]))),
    ),
    "",
    "Collective algorithms (machine.network.collectives.algorithms.<collective>; default auto, MPICH's choice by message size and ranks):",
    formatTable(["collective", "algorithms"], collectives.map((c) => [c.collective, ["auto", ...c.algorithms].join(", ")])),
    "",
    "Collective selection and cost (machine.network.collectives.params.<name>; defaults MPICH 3.x's):",
    formatTable(["name", "default", "meaning"], collectiveParams.map((p) => [p.name, quantityText(p.default, p), p.doc])),
    "",
    "'ccasim presets <name>' prints every parameter of one preset with its source.",
  ].join("\n");
}

export const presetsCommand: Command = {
  name: "presets",
  help: HELP,
  run(ctx) {
    const { values, positionals } = parseCommandArgs("presets", ctx.argv, { json: { type: "boolean" } });
    const json = values.json === true;
    if (positionals.length > 1) throw new UsageError(`one preset name at most, got ${positionals.length}: ${positionals.join(" ")}; see 'ccasim presets --help'`, "presets");
    const name = positionals[0];
    if (name === undefined) {
      ctx.out(listAll(json) + "\n");
      return 0;
    }
    if (machinePresets.has(name)) ctx.out(describeMachine(machinePresets.get(name), json) + "\n");
    else if (interconnectPresets.has(name)) ctx.out(describeInterconnect(interconnectPresets.get(name), json) + "\n");
    else {
      const known = [...machinePresets.names(), ...interconnectPresets.names()];
      throw new UsageError(`no machine or interconnect preset '${name}'${didYouMean(name, known)}; known: ${known.join(", ")}`, "presets");
    }
    return 0;
  },
};
