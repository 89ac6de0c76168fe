import { randomInt } from "node:crypto";

const ADJECTIVES = [
  "able", "bold", "brave", "bright", "calm", "clever", "crisp", "daring", "eager", "fair", "fleet", "gentle",
  "glad", "grand", "handsome", "honest", "jolly", "keen", "kind", "lively", "lucky", "merry", "nimble", "polite",
  "proud", "quick", "quiet", "rare", "sharp", "shy", "silent", "smart", "spry", "steady", "sunny", "swift",
  "tidy", "vast", "warm", "wise",
];
const NOUNS = [
  "ant", "bass", "bear", "bee", "bird", "boar", "carp", "cat", "colt", "crab", "crow", "deer", "doe", "dove",
  "eel", "elk", "finch", "fox", "frog", "goat", "gull", "hare", "hawk", "hen", "horse", "jay", "koi", "lamb",
  "lark", "lynx", "mole", "moth", "newt", "owl", "ox", "perch", "pig", "ram", "seal", "shark", "slug", "snail",
  "sow", "squid", "stag", "swan", "toad", "trout", "wasp", "whale", "wolf", "wren", "yak",
];

/** A run name in MLflow's style: adjective-noun-number. */
export function generateRunName(): string {
  return `${ADJECTIVES[randomInt(ADJECTIVES.length)]}-${NOUNS[randomInt(NOUNS.length)]}-${randomInt(1000)}`;
}
