/**
 * SQL expressions that order metric points exactly in float8 arrays, for metric_rollups (its
 * writer and reader in store/metric-rollups.ts and store/metric-sampling.ts, and migration 0014's
 * backfill): `float8[]` aggregates (min/max, hash aggregation, no sort) compare steps and
 * timestamps, which are bigints, exactly when each is split into two float8s, x >> 26 and
 * x & (2^26 - 1) (both exact, and ordered as x is). Values keep float8's order, in which NaN is
 * above every number. Migrations use this module: the encoding must never change meaning.
 */

const split = (x: string) => `(${x} >> 26)::float8, (${x} & 67108863)::float8`;
const negSplit = (x: string) => `-(${x} >> 26)::float8, -(${x} & 67108863)::float8`;
const joined = (a: string, i: number) => `(${a}[${i}]::bigint * 67108864 + ${a}[${i + 1}]::bigint)`;
const joinedNeg = (a: string, i: number) => `((-${a}[${i}])::bigint * 67108864 + (-${a}[${i + 1}])::bigint)`;

/** Array ordered by (step, timestamp, value): min is the first point, max the last. */
export const byStep = (step: string, timestamp: string, value: string) =>
  `ARRAY[${split(step)}, ${split(timestamp)}, ${value}]`;
/** Array ordered by (value, step, timestamp): min is the lowest point (ties: earliest). */
export const byValue = (step: string, timestamp: string, value: string) =>
  `ARRAY[${value}, ${split(step)}, ${split(timestamp)}]`;
/** Array whose max is the highest point (ties: earliest step, then timestamp). */
export const byValueDesc = (step: string, timestamp: string, value: string) =>
  `ARRAY[${value}, ${negSplit(step)}, ${negSplit(timestamp)}]`;

/** (step, timestamp, value) SQL expressions of an array built by byStep / byValue / byValueDesc. */
export const fromByStep = (a: string) => [joined(a, 1), joined(a, 3), `${a}[5]`] as const;
export const fromByValue = (a: string) => [joined(a, 2), joined(a, 4), `${a}[1]`] as const;
export const fromByValueDesc = (a: string) => [joinedNeg(a, 2), joinedNeg(a, 4), `${a}[1]`] as const;
