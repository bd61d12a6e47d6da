/** Standard normal CDF through erf (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7). */
export function normalCdf(x: number, mu = 0, sigma = 1): number {
  if (sigma <= 0) return x < mu ? 0 : 1;
  const z = (x - mu) / (sigma * Math.SQRT2);
  const t = 1 / (1 + 0.3275911 * Math.abs(z));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return 0.5 * (1 + (z >= 0 ? erf : -erf));
}
