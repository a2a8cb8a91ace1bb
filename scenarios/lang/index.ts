/**
 * The scenario language toolkit: quantities with units, located YAML sources and errors, a schema
 * language that validates located values and emits JSON Schema, and cost expressions compiled once.
 *
 * @packageDocumentation
 */
export { parseQuantity, formatQuantity, formatBinaryBytes, QuantityError, unitsOf, baseUnitOf, acceptsBareNumber, describeDimension, type QuantityOptions } from "./units.js";
export { unitInExpression, unitInWorkloadValue } from "./unit-advice.js";
export {
  ScenarioError,
  ScenarioErrors,
  collectErrors,
  parseYamlSource,
  formatPath,
  errorAt,
  type SourceDoc,
  type SourcePosition,
  type KeyPath,
  type ErrorLocation,
} from "./source.js";
export {
  s,
  isPlainObject,
  validate,
  validateValue,
  toJsonSchema,
  describeSchema,
  schemaAt,
  quantityPattern,
  type Schema,
  type ObjectSchema,
  type StringSchema,
  type NumberSchema,
  type BooleanSchema,
  type QuantitySchema,
  type EnumSchema,
  type LiteralSchema,
  type ArraySchema,
  type RecordSchema,
  type ExpressionSchema,
  type UnionSchema,
  type OptionalSchema,
  type AnySchema,
  type LazySchema,
  type RefineSchema,
  type RefineCheck,
} from "./schema.js";
export {
  compileExpression,
  compileExpressionSet,
  checkExpressionCycles,
  checkExpressionSyntax,
  syntaxErrorDetail,
  expressionReferences,
  isExpressionConstant,
  ExpressionError,
  BUILTIN_FUNCTIONS,
  type CompiledExpression,
  type CompileOptions,
  type ExpressionFunction,
} from "./expression.js";
export { parseOverride, applyOverride, type Override } from "./overrides.js";
export { fileErrorText, wordFileErrors } from "../../profile/file-error.js";
