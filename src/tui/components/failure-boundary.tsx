import { useApp } from 'ink';
import { Component, type ReactNode, useEffect } from 'react';
import { cacheFailure } from '../../cache/index.js';
import { FailureContext } from '../state/failure-context.js';

interface Props {
  /** The cache file, named in the line a failed read ends with. */
  file: string;
  children: ReactNode;
}

/**
 * The monitor's one error boundary, around everything that reads the cache: a read that fails (a damaged page, a
 * file gone) or any other error ends the monitor with one line, never Ink's error box and its stack trace. The line
 * is the error's message, printed by the CLI on stderr once the screen is given back (`waitUntilExit` rejects with
 * it): a failure of the cache is a CacheError naming the file (exit 2), anything else a plain Error (exit 1).
 */
export class FailureBoundary extends Component<Props, { failure: Error | null }> {
  override state = { failure: null as Error | null };

  static getDerivedStateFromError(error: unknown): { failure: Error } {
    return { failure: asFailure(error) };
  }

  /** For errors outside rendering, which React does not route to a boundary. */
  private readonly fail = (error: unknown) => {
    this.setState((s) => (s.failure ? s : { failure: asFailure(error) }));
  };

  override render() {
    const { failure } = this.state;
    if (failure) return <Exit failure={cacheFailure(this.props.file, failure)} />;
    return <FailureContext.Provider value={this.fail}>{this.props.children}</FailureContext.Provider>;
  }
}

const asFailure = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** Draws nothing (the screen is cleared) and ends Ink with the failure. */
function Exit({ failure }: { failure: Error }) {
  const { exit } = useApp();
  useEffect(() => exit(failure), [exit, failure]);
  return null;
}
