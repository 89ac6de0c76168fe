// Smoothing of a metric series: exponential moving average with TensorBoard's debiasing, so the
// first points are not pulled towards zero. Non-finite values pass through and do not poison the
// average.

export function smoothEma(values: readonly (number | null)[], weight: number): (number | null)[] {
  if (!(weight > 0)) return [...values];
  const w = Math.min(weight, 0.999);
  let last = 0;
  let count = 0;
  return values.map((value) => {
    if (value === null || !Number.isFinite(value)) return value;
    last = last * w + (1 - w) * value;
    count += 1;
    return last / (1 - w ** count);
  });
}
