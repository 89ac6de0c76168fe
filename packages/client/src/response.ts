import { TrackerError } from "./errors.js";

/** What an openapi-fetch call resolves to. */
interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and returns its data; an error answer is thrown as TrackerError. */
export async function expectData<T>(call: Promise<ApiResult<T>>): Promise<T> {
  const result = await settle(call);
  if (result.data === undefined) {
    throw new TrackerError({
      errorCode: "UNEXPECTED_RESPONSE",
      status: result.response.status,
      message: "The answer has no JSON body",
    });
  }
  return result.data;
}

/** Awaits an openapi-fetch call whose answer carries nothing of interest (`{}`). */
export async function expectOk(call: Promise<ApiResult<unknown>>): Promise<void> {
  await settle(call);
}

async function settle<T>(call: Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  let result: ApiResult<T>;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof TrackerError) throw error;
    // openapi-fetch throws when a successful answer is not valid JSON.
    throw new TrackerError({
      errorCode: "UNEXPECTED_RESPONSE",
      status: 0,
      message: `Unreadable answer: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  if (!result.response.ok) throw TrackerError.fromResponse(result.response.status, result.error);
  return result;
}
