import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** `../shared/data` relative to the project root (the real measurement fixtures). */
export const DATA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "data");
/** Real TAU profiles. */
export const TAU = join(DATA, "tau");
/** Real packed profiles. */
export const PPK = join(TAU, "ppk");
/** Real TAU XML (merged) profiles shipped with the tests, with their origin (`test/data/tau-xml/README.md`). */
export const TAU_XML = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "tau-xml");
/** Real CUBE4 profiles (Score-P) shipped with the tests, with their origin (`test/data/cube/README.md`). */
export const CUBE = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "cube");
