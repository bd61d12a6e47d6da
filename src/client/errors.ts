/** Failures of a call to the service, each naming the endpoint (never the key). */
export class ApiError extends Error {
  constructor(
    readonly endpoint: string,
    message: string,
  ) {
    super(`${endpoint}: ${message}`);
  }
}

/** 401: the key was rejected. Never retried; the CLI exits 3. */
export class AuthRejected extends ApiError {
  constructor(endpoint: string) {
    super(endpoint, 'the service rejected the API key (401); check SVC_API_KEY or --api-key');
  }
}

/** Network errors, timeouts, 5xx and 429 that outlasted every retry. The CLI exits 4. */
export class ServiceUnreachable extends ApiError {
  constructor(
    endpoint: string,
    message: string,
    /**
     * Every attempt failed before a connection: refused, or the host not found. Nothing listens at the base URL, so
     * no other endpoint of it answers either (a timeout or a 5xx says nothing of the others).
     */
    readonly noConnection = false,
  ) {
    super(endpoint, message);
  }
}

/** 400, 404, 405: our request was wrong. A bug report, not something to retry. */
export class RequestRefused extends ApiError {
  constructor(
    endpoint: string,
    readonly status: number,
    serverMessage: string,
  ) {
    super(endpoint, `the service refused the request (${status}): ${serverMessage}`);
  }
}

/** The body was not JSON or did not match the contract; nothing from it may be stored. */
export class InvalidResponse extends ApiError {}

/** undici refused to send the request (a header it cannot carry, say). Sending it again cannot help. */
export class RequestNotSent extends ApiError {}

/** The client was cancelled (the monitor or the daemon is stopping); nothing is wrong with the service. */
export class Cancelled extends ApiError {
  constructor(endpoint: string) {
    super(endpoint, 'cancelled: stopping');
  }
}
