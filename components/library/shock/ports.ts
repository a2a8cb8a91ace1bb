/**
 * Port types of the shock-interface AMR assembly (paper 000 Figure 8, paper 001 Figure 5).
 *
 * @packageDocumentation
 */
import type { PortType } from "../../ports.js";

/** AMRMesh's patch services: the local patches of a level, prolongation, restriction, regridding. */
export const MESH_PORT: PortType = {
  name: "AMRMesh",
  doc: "the patch hierarchy: local patches per level, coarse-fine interpolation, regridding",
  methods: [
    { name: "patches", args: ["level"], doc: "returns { epoch, patches } of this rank on `level`" },
    { name: "prolong", args: ["level"], doc: "fills coarse-fine ghost cells of this rank's patches on `level` from level - 1" },
    { name: "restrict", args: ["level"], doc: "averages this rank's patches on `level` onto level - 1" },
    { name: "regrid", args: ["step"], doc: "re-tiles the refined levels around the moving fronts, re-balances and migrates the data" },
  ],
};

/** AMRMesh's ghost-cell update (the port the paper's AMRMesh proxy measures). */
export const GHOST_PORT: PortType = {
  name: "GhostUpdate",
  doc: "ghost-cell update of one level with off-processor neighbour patches",
  methods: [{ name: "ghostUpdate", args: ["level", "epoch"], doc: "exchanges halos of every patch on `level` of hierarchy `epoch`" }],
};

/** RK2's entry: advance a level (and, recursively, its finer levels) by one step of that level. */
export const ADVANCE_PORT: PortType = {
  name: "Advance",
  methods: [{ name: "advance", args: ["level"], doc: "advances `level` and its children (L0, L1, L2, L2, L1, L2, L2 for three levels)" }],
};

/** InviscidFlux: the hyperbolic fluxes of one patch. */
export const INVISCID_PORT: PortType = {
  name: "InviscidFlux",
  methods: [{ name: "compute", args: ["field", "result"], doc: "X- then Y-direction states and fluxes of one patch" }],
};

/** StatesConstructor: left/right states of a field along one direction. */
export const STATES_PORT: PortType = {
  name: "States",
  methods: [{ name: "compute", args: ["field", "result", "mode"], doc: "mode `sequential` (X-derivatives) or `strided` (Y-derivatives)" }],
};

/** A flux implementation (EFMFlux, GodunovFlux): fluxes from the states along one direction. */
export const FLUX_PORT: PortType = {
  name: "Flux",
  methods: [{ name: "compute", args: ["states", "result", "mode"], doc: "mode `sequential` (X) or `strided` (Y)" }],
};

/** The two access modes of the states and flux kernels. */
export type SweepMode = "sequential" | "strided";
