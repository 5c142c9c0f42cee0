// Special functions for p-values, hand-written because the npm options are either heavy (@stdlib) or less
// accurate than SciPy (jStat). Standard algorithms: Lanczos log-gamma, Lentz continued fractions.

const SQRT_PI = Math.sqrt(Math.PI);

/** erfc(x) for x ≥ 0: series for erf below 2, continued fraction above (relative error ~1e-15). */
function erfcNonNegative(x: number): number {
  if (x < 2) {
    // erf(x) = 2/√π · e^{-x²} · Σ 2^n x^{2n+1} / (1·3·…·(2n+1)); all terms positive.
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - (2 / SQRT_PI) * Math.exp(-x * x) * sum;
  }
  // erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), modified Lentz.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 5000; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / SQRT_PI / f;
}

/** Upper tail of the standard normal, P(Z > z) (SciPy `norm.sf`). */
export function normalSurvival(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Number.POSITIVE_INFINITY) return 0;
  if (z === Number.NEGATIVE_INFINITY) return 1;
  const x = z / Math.SQRT2;
  return x >= 0 ? 0.5 * erfcNonNegative(x) : 1 - 0.5 * erfcNonNegative(-x);
}

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = LANCZOS[0]!;
  const t = shifted + 7.5;
  for (let index = 1; index < 9; index++) sum += LANCZOS[index]! / (shifted + index);
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta (Numerical Recipes `betacf`, modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b); `oneMinusX` lets callers pass 1 − x without cancellation. */
export function regularizedIncompleteBeta(x: number, a: number, b: number, oneMinusX = 1 - x): number {
  if (x <= 0) return 0;
  if (oneMinusX <= 0) return 1;
  const logFront = a * Math.log(x) + b * Math.log(oneMinusX) - (logGamma(a) + logGamma(b) - logGamma(a + b));
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(a, b, x)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(b, a, oneMinusX)) / b;
}

/** Upper tail of Student's t with `df` degrees of freedom, P(T > t) (SciPy `t.sf`). */
export function studentTSurvival(t: number, df: number): number {
  if (Number.isNaN(t) || Number.isNaN(df)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 0;
  if (t === Number.NEGATIVE_INFINITY) return 1;
  const t2 = t * t;
  const x = df / (df + t2);
  const tail = 0.5 * regularizedIncompleteBeta(x, df / 2, 0.5, t2 / (df + t2));
  return t >= 0 ? tail : 1 - tail;
}
