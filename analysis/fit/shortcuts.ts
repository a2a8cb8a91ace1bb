import { AnalysisInputError } from "../errors.js";
import { powerLawHypothesis, polynomialHypothesis } from "./families.js";
import { fitHypothesis, type FittedModel } from "./fitted-model.js";
import { groupByQ } from "./fit-models.js";

/**
 * Fits T = exp(a·log(Q) + b) to the means of T grouped by Q.
 * @param variable - the name of Q in the model's formulas (default "Q"; `x` gives `exp(2·log(x) + 0.693)`)
 * @throws AnalysisInputError when a Q or mean is not positive, or with fewer than 2 distinct Q
 */
export function fitPowerLaw(q: ArrayLike<number>, t: ArrayLike<number>, variable = "Q"): FittedModel {
  const g = groupByQ(q, t);
  const m = fitHypothesis(powerLawHypothesis, g.q, g.mean, { variable });
  if (!m) throw new AnalysisInputError("a power law needs at least 2 distinct Q > 0 with mean T > 0");
  return m;
}

/**
 * Fits a polynomial of the given degree to the means of T grouped by Q.
 * @param variable - the name of Q in the model's formulas (default "Q")
 * @throws AnalysisInputError with fewer than degree + 1 distinct Q
 */
export function fitPolynomial(q: ArrayLike<number>, t: ArrayLike<number>, degree: number, variable = "Q"): FittedModel {
  const g = groupByQ(q, t);
  const m = fitHypothesis(polynomialHypothesis(degree), g.q, g.mean, { variable });
  if (!m) throw new AnalysisInputError(`a degree-${degree} polynomial needs at least ${degree + 1} distinct Q`);
  return m;
}
