import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import type { CheckedTarget } from './address-guard.js';

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A lookup that answers only the address the guard checked: the connection cannot be rebound by DNS. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Keep-alive connection pools, one per webhook and checked address. */
export class TargetAgents {
  private readonly agents = new Map<string, Agent>();

  for(webhookId: string, target: CheckedTarget): Agent {
    const key = `${webhookId}|${target.address}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({ connect: { lookup: pinnedLookup(target.address, target.family) }, keepAliveTimeout: 10_000 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.close().catch(() => undefined)));
    this.agents.clear();
  }
}

/**
 * One delivery attempt: POST within a hard deadline for the whole exchange. A 2xx is success; a redirect is not
 * followed (undici does not follow by default) and, like any other status, a timeout or a broken connection, fails.
 */
export async function postOnce(
  target: CheckedTarget,
  agent: Agent,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(target.url, { method: 'POST', body, headers, dispatcher: agent, signal });
    await response.body.dump().catch(() => undefined);
    const statusCode = response.statusCode;
    const redirect = statusCode >= 300 && statusCode < 400;
    return { statusCode, error: redirect ? 'redirect not followed' : null, durationMs: performance.now() - started };
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : ((error as { code?: string }).code ?? (error as Error).message ?? 'request failed');
    return { statusCode: null, error: String(reason).slice(0, 200), durationMs: performance.now() - started };
  }
}
