/**
 * Program models (Performance Prophet, paper 003): activity diagrams of actions with cost
 * functions, variables, branches, loops and MPI elements, validated and compiled once into
 * closures, run SPMD on the simulated cluster.
 *
 * @packageDocumentation
 */
export { programSchema, ELEMENT_KINDS, type ProgramSection, type ElementSection, type DiagramSection, type VariableDecl, type VariableType, type ElementKind } from "./schema.js";
export { FunctionInliner, parseFunctionKey, PROGRAM_BUILTINS, type CostFunction } from "./functions.js";
export { SYSTEM_SLOTS, COLLECTIVE_OPS, MAX_ACTIVITY_NESTING, type ProgramModel, type ModelNode, type ModelExpr, type CommNode, type CommOp, type Diagram, type ElementInfo, type Assignment as ProgramAssignment } from "./model.js";
export { prepareProgram, type ProgramLayout, type ProgramSource } from "./prepare.js";
export { checkProgram, type CheckSink } from "./check.js";
export { compileProgram, type CompiledProgram } from "./compile.js";
export { interpretProgram } from "./interpret.js";
export { ProgramRuntime, ModelRuntimeError, type ProgramRunOptions, type ProgramNetwork, type ProcessThread } from "./runtime.js";
export { ChromeTrace, TraceRecorder, type ChromeTraceObject } from "./trace.js";
export { runProgram, programToTrial, compiledProgramOf, type ProgramRunResult, type ProgramEvaluator } from "./run-program.js";
export { executeProgramScenario, type ProgramExecuteOptions } from "./execute.js";
export { readMeasuredTable, parseMeasuredCsv, parseMeasuredYaml, MeasuredTableError, type MeasuredConfiguration } from "./measured.js";
export { validateModel, formatValidationReport, type ValidationReport, type ValidationRow, type ValidateModelOptions } from "./validate-model.js";
