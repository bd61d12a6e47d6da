import { createContext, useContext } from 'react';

/**
 * Hands an error caught outside rendering (a key handler) to the app's one error boundary, which ends the monitor
 * with one line, as it does for an error thrown while rendering.
 */
export const FailureContext = createContext<(error: unknown) => void>((error) => {
  throw error;
});

export const useFailure = (): ((error: unknown) => void) => useContext(FailureContext);
