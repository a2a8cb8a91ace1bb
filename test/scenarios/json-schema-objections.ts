import Ajv2020 from "ajv/dist/2020.js";

// The default export is the Ajv class; its typings describe the module as CommonJS.
const Ajv = Ajv2020 as unknown as new (options: object) => { compile(schema: object): ((doc: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null } };

/**
 * A checker of documents against the JSON Schema `schema` (ajv, draft 2020-12, every error):
 * it gives a document's objections as `path: message` lines, none when the schema accepts it.
 */
export function objectionsTo(schema: object): (doc: unknown) => string[] {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return (doc) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath}: ${e.message ?? ""}`));
}
