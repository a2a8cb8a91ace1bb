import { Registry, type ParamDoc, type Registrable } from "../../engine/index.js";

/**
 * An interconnect preset: the published MPI latency and bandwidth of a network, with its source.
 * A preset gives parameters to any registered point-to-point model: Hockney takes them as they
 * are; LogGP parameters are derived (see {@link deriveLogGP}).
 */
export interface InterconnectPreset extends Registrable {
  /** Published short-message MPI latency (us): Hockney alpha. */
  readonly alpha: number;
  /** Published bandwidth per direction (bytes/s): Hockney 1/beta. */
  readonly bandwidth: number;
  /** Where the numbers come from. */
  readonly source: string;
}

/** Parameters of a preset (apply to every preset). */
export const presetParams: readonly ParamDoc[] = [
  {
    name: "overheadFraction",
    type: "number",
    doc:
      "When LogGP parameters are derived from alpha/bandwidth: fraction of alpha spent as CPU overhead o on each side " +
      "(L = alpha - 2o, g = o, G = 1/bandwidth). An assumption, not a measurement.",
    default: 0.25,
    min: 0,
    max: 0.5,
  },
];

/**
 * LogGP parameters derived from a published alpha (us) and bandwidth (bytes/s) when only those
 * are known. With `rho = overheadFraction`:
 * - `o = rho * alpha` (CPU overhead on each side),
 * - `L = alpha - 2o` (so a small message still costs `2o + L = alpha` end to end),
 * - `g = o` (the message rate is limited by the per-message overhead),
 * - `G = 1/bandwidth` (the same asymptotic bandwidth).
 * The LogGP one-way time is then `alpha + (n-1)/bandwidth`: Hockney's minus one byte time.
 * @throws RangeError when rho is outside [0, 0.5]
 */
export function deriveLogGP(alpha: number, bandwidth: number, overheadFraction = 0.25): { L: number; o: number; g: number; bandwidth: number } {
  if (!(overheadFraction >= 0 && overheadFraction <= 0.5)) throw new RangeError(`overheadFraction ${overheadFraction} is outside [0, 0.5]`);
  const o = overheadFraction * alpha;
  return { L: alpha - 2 * o, o, g: o, bandwidth };
}

/**
 * The values a preset gives to the point-to-point model `model` (base units).
 * @throws Error for a model that has no derivation from alpha/bandwidth
 */
export function presetModelParams(preset: InterconnectPreset, model: string, overheadFraction = 0.25): Record<string, number> {
  if (model === "hockney") return { alpha: preset.alpha, bandwidth: preset.bandwidth };
  if (model === "loggp") return deriveLogGP(preset.alpha, preset.bandwidth, overheadFraction);
  throw new Error(`interconnect preset '${preset.name}' has no parameters for model '${model}'; give them explicitly`);
}

/** Whether {@link presetModelParams} derives parameters for the point-to-point model `model`. */
export function hasPresetParams(model: string): boolean {
  return model === "hockney" || model === "loggp";
}

/** Registry of interconnect presets. */
export const interconnectPresets = new Registry<InterconnectPreset>("interconnect preset");

const SGI_TABLE =
  "SGI, 'SGI NUMAlink Interconnect Fabric', Table 1 'Latency and Bandwidth performance of common interconnect technologies' " +
  "(http://www.sgi.com/products/servers/altix/numalink.html, 2005)";

interconnectPresets.register({
  name: "fast-ethernet",
  summary: "100 Mbit/s Fast Ethernet with MPI over TCP (the LAPW0 Gescher cluster of paper 003)",
  params: presetParams,
  alpha: 120,
  bandwidth: 11.25e6,
  source:
    "Link rate 100 Mbit/s (paper 003, Gescher cluster). Measured on the Ethernet interfaces of one cluster, with MPI curves: 'about 90Mbps' peak for Fast Ethernet " +
    "and a latency 'around 110-130' for Fast and Gigabit Ethernet alike, which the page writes as 'milliseconds', evidently microseconds " +
    "(Ames Laboratory Scalable Computing Lab, 'Selected Benchmark results obtained on the IBM cluster', http://www.scl.ameslab.gov/Projects/IBMCluster/Benchmarks.html); " +
    "alpha = 120 us (mid-range), bandwidth = 90 Mbit/s = 11.25 MB/s.",
});

interconnectPresets.register({
  name: "gigabit-ethernet",
  summary: "Gigabit Ethernet with MPI over TCP: about 30 us, 100 MB/s",
  params: presetParams,
  alpha: 30,
  bandwidth: 100e6,
  source: `${SGI_TABLE}: 'Ethernet, various: 30 us, 100 MB/s'.`,
});

interconnectPresets.register({
  name: "myrinet-2000",
  summary: "Myrinet 2000 with GM: about 7 us, 245 MB/s",
  params: presetParams,
  alpha: 7,
  bandwidth: 245e6,
  source:
    "Myricom, Myrinet-2000 product overview: GM 'sustained one-way data rates of ~1.96 Gbits/s' (245 MB/s) and " +
    "'short-message latencies as low as 7 us' (reproduced at http://www.athloncluster.com/myri3.htm).",
});

interconnectPresets.register({
  name: "infiniband-4x",
  summary: "InfiniBand 4x (Voltaire, MVAPICH): about 3.5 us, 830 MB/s",
  params: presetParams,
  alpha: 3.5,
  bandwidth: 830e6,
  source: `${SGI_TABLE}: 'Infiniband, Voltaire: 3.5 us, 830 MB/s' (citing OSU MVAPICH measurements, http://nowlab.cis.ohio-state.edu/projects/mpi-iba/).`,
});

interconnectPresets.register({
  name: "numalink-4",
  summary: "SGI NUMAlink 4 (Altix): about 1 us, 3.2 GB/s per direction",
  params: presetParams,
  alpha: 1,
  bandwidth: 3.2e9,
  source: `${SGI_TABLE}: 'NUMAlink 4 (Altix), SGI: 1 us, 3200 MB/s unidirectional per link'.`,
});
