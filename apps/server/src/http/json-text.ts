/**
 * An answer whose JSON text is already written (e.g. a page of experiments whose items the database
 * wrote as JSON text, store/experiments.ts experimentJsonColumns): http/json-response.ts sends the
 * text as it is instead of serialising an object. `Answer` is the object the text stands for, for
 * the handler's type; `value()` parses the text for the few places that read an answer (the
 * authorisation filter of lists, the answer check of tests).
 */
export class JsonText<Answer = unknown> {
  /** The type of the answer the text stands for (never set: types only). */
  declare readonly answer?: Answer;

  constructor(readonly text: string) {}

  value(): Answer {
    return JSON.parse(this.text) as Answer;
  }
}

/** An answer as an object: `answer` itself, or the object its JSON text stands for. */
export const answerObject = (answer: object): object => (answer instanceof JsonText ? answer.value() : answer);

/**
 * `{"<list>":[<items>]}` and `"next_page_token"` when there is one: what JSON.stringify writes for
 * `{ [list]: items, next_page_token }`, each item being given as its JSON text.
 */
export function pageText(list: string, items: readonly string[], nextPageToken: string | undefined): string {
  const token = nextPageToken ? `,"next_page_token":${JSON.stringify(nextPageToken)}` : "";
  return `{${JSON.stringify(list)}:[${items.join(",")}]${token}}`;
}
