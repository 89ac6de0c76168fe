/** The API's errors (src/errors.ts, below core/ and search/ alike), as core/ names them. */
export * from "../errors.js";
