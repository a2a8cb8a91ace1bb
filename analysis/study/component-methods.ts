/**
 * Which component methods a study selection pools into one fit.
 *
 * @packageDocumentation
 */
import { StudyError, sqlString, studyObservations, type StudySelection, type StudyStore } from "../../profile/study/index.js";

/**
 * The component methods (`Component.method`, sorted) whose records of successful points the
 * selection takes: more than one means that {@link studyObservations} pools them into one data
 * set (as `RecordObservationSet.sources` says of record files). Each method of the study that the
 * selection's component and method leave open is extracted with the rest of the selection (its
 * port, `where`, parameter and value), so a method counts only when records of it are fitted.
 * Meant for a selection {@link studyObservations} accepts: a method whose extraction fails (for
 * such a selection, only by having no record in it) is not counted.
 */
export async function studyComponentMethods(store: StudyStore, sel: StudySelection): Promise<string[]> {
  const fixed = [
    `p.status = 'ok'`,
    sel.component !== undefined ? `r.component = ${sqlString(sel.component)}` : "",
    sel.method !== undefined ? `r.method = ${sqlString(sel.method)}` : "",
  ].filter(Boolean);
  const routines = (await store.query(`SELECT DISTINCT r.component, r.method FROM record r JOIN point p USING (point_id) WHERE ${fixed.join(" AND ")} ORDER BY 1, 2`)).rows.map(
    ([component, method]) => ({ component: String(component), method: String(method) }),
  );
  if (routines.length <= 1) return routines.map((r) => `${r.component}.${r.method}`);
  const taken: string[] = [];
  for (const r of routines) {
    try {
      await studyObservations(store, { ...sel, component: r.component, method: r.method });
      taken.push(`${r.component}.${r.method}`);
    } catch (e) {
      // why: the selection as a whole extracts, so a method's part fails only by being empty
      if (!(e instanceof StudyError)) throw e;
    }
  }
  return taken;
}
