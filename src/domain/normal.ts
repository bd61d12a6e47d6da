/**
 * Normal CDF through the complementary error function, with a relative error below 1.2e-7 everywhere (Numerical
 * Recipes' Chebyshev fit of erfc). Relative, not only absolute, accuracy matters here: a running high three or four
 * sigma above the forecast conditions the bucket probability on a tail of 1e-4 to 1e-5, where an absolute error of
 * 1e-7 (Abramowitz and Stegun 7.1.26, used before) would move the ratio by percents.
 */
export function normalCdf(x: number, mu = 0, sigma = 1): number {
  if (sigma <= 0) return x < mu ? 0 : 1;
  const z = (x - mu) / (sigma * Math.SQRT2);
  return 0.5 * erfc(-z);
}

/** erfc(x) = 1 - erf(x), fractional error below 1.2e-7. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const tail = t * Math.exp(-z * z + poly);
  return x >= 0 ? tail : 2 - tail;
}
