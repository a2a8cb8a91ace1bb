/**
 * The shock-interface AMR application of papers 000 and 001: ShockDriver, AMRMesh, RK2,
 * InviscidFlux, StatesConstructor and the interchangeable EFMFlux and GodunovFlux.
 *
 * @packageDocumentation
 */
import type { ComponentType } from "../../component.js";
import { amrMeshComponent } from "./amr-mesh.js";
import { efmFluxComponent } from "./efm-flux.js";
import { godunovFluxComponent } from "./godunov-flux.js";
import { inviscidFluxComponent } from "./inviscid-flux.js";
import { rk2Component } from "./rk2.js";
import { shockDriverComponent } from "./shock-driver.js";
import { statesConstructorComponent } from "./states-constructor.js";

export { amrMeshComponent, type AmrMeshPrepared } from "./amr-mesh.js";
export { efmFluxComponent, EFM_WORK } from "./efm-flux.js";
export { godunovFluxComponent, GODUNOV_WORK, GODUNOV_ITERATION, GODUNOV_ITERATIONS, GODUNOV_ITERATION_CV, type GodunovPrepared } from "./godunov-flux.js";
export { inviscidFluxComponent } from "./inviscid-flux.js";
export { rk2Component, RK2_UPDATE } from "./rk2.js";
export { shockDriverComponent } from "./shock-driver.js";
export { statesConstructorComponent, STATES_WORK } from "./states-constructor.js";
export { buildHierarchy, hierarchyStats, REFINEMENT, type Hierarchy, type LevelLayout, type MeshSpec, type Patch, type Front, type LevelSizes, type SizeRange, type RankPlan, type Message, type Balancer } from "./hierarchy.js";
export { type ElementWork, type LoopWork } from "./params.js";
export { MESH_PORT, GHOST_PORT, ADVANCE_PORT, INVISCID_PORT, STATES_PORT, FLUX_PORT, type SweepMode } from "./ports.js";

/** The component types of the shock-AMR application, as registered in the library. */
export const shockComponents: readonly ComponentType[] = [
  shockDriverComponent,
  amrMeshComponent,
  rk2Component,
  inviscidFluxComponent,
  statesConstructorComponent,
  efmFluxComponent,
  godunovFluxComponent,
];
