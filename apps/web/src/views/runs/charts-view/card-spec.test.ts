import { describe, expect, it } from "vitest";
import {
  cardColumnKeys,
  cardTitle,
  formatCard,
  moveCard,
  NO_CARDS,
  parseCard,
  readCards,
  writeCards,
} from "./card-spec";

describe("card spec in the URL", () => {
  it("round-trips every card type, enlarged or not", () => {
    for (const text of [
      "line:metrics.loss",
      "bar*:params.lr",
      "scatter:params.lr:metrics.acc",
      "parallel*:params.lr:params.model:metrics.acc",
    ])
      expect(formatCard(parseCard(text)!)).toBe(text);
    expect(parseCard("bar*:metrics.acc")).toEqual({ type: "bar", axes: ["metrics.acc"], wide: true });
  });
  it("ignores cards that do not fit their type", () => {
    for (const text of [
      "pie:metrics.acc",
      "line:params.lr",
      "line:metrics.a:metrics.b",
      "scatter:metrics.a",
      "parallel:metrics.a",
      "bar:tags.x",
      "bar:",
    ])
      expect(parseCard(text)).toBeUndefined();
  });
  it("defaults to a line chart per metric, keeps an explicit empty list, drops duplicates", () => {
    expect(readCards(undefined, ["acc", "loss"]).map(formatCard)).toEqual(["line:metrics.acc", "line:metrics.loss"]);
    expect(readCards([NO_CARDS], ["acc"])).toEqual([]);
    expect(writeCards([])).toEqual([NO_CARDS]);
    expect(readCards(["bar:metrics.acc", "bar*:metrics.acc", "junk"], []).map(formatCard)).toEqual(["bar:metrics.acc"]);
  });
  it("moves a card, clamped at the ends", () => {
    const cards = readCards(["line:metrics.a", "line:metrics.b", "line:metrics.c"], []);
    expect(moveCard(cards, 2, -1).map(cardTitle)).toEqual(["a", "c", "b"]);
    expect(moveCard(cards, 0, -1).map(cardTitle)).toEqual(["a", "b", "c"]);
  });
  it("names the latest values the non-line cards read", () => {
    const cards = readCards(["line:metrics.loss", "bar:metrics.acc", "scatter:params.lr:metrics.acc"], []);
    expect(cardColumnKeys(cards)).toEqual({ metrics: ["acc"], params: ["lr"] });
    expect(cardTitle(cards[2]!)).toBe("acc vs lr");
  });
});
