/** Five wrong admin tokens a minute from one address, then 429 until that minute has passed (docs/reference-service.md). */
export const SIGN_IN_TRIES = { max: 5, windowMs: 60_000 } as const;

/** How many addresses the throttle remembers at most; past it, the one whose last wrong token is oldest goes. */
export const THROTTLED_ADDRESSES = 10_000;

/**
 * Wrong admin tokens by address: the times of the last few, within the last minute. Only failures count: the right
 * token signs in whatever its address's count (and clears it), so nobody who shares the operator's address (on
 * loopback, every user of the machine) can lock the operator out by typing wrong tokens. Memory is bounded: at most
 * `max` times per address and `addresses` addresses, an address with nothing left in the window is dropped when
 * looked at, and the least recently failed goes first when the map is full.
 */
export class SignInThrottle {
  /** In order of each address's last wrong token, oldest first (an address is re-inserted at each failure). */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly addresses = THROTTLED_ADDRESSES,
  ) {}

  /** Seconds until this address's next wrong token is judged again, or 0 when it is judged now. */
  retryAfterS(address: string): number {
    const recent = this.recent(address);
    if (recent.length < SIGN_IN_TRIES.max) return 0;
    const oldest = recent[recent.length - SIGN_IN_TRIES.max] as number;
    return Math.max(1, Math.ceil((oldest + SIGN_IN_TRIES.windowMs - this.now()) / 1000));
  }

  /** Records a wrong token; returns how many this address has had in the last minute. */
  fail(address: string): number {
    const recent = [...this.recent(address), this.now()].slice(-SIGN_IN_TRIES.max);
    this.failures.delete(address);
    this.failures.set(address, recent);
    if (this.failures.size > this.addresses) {
      const leastRecent = this.failures.keys().next().value as string;
      this.failures.delete(leastRecent);
    }
    return recent.length;
  }

  /** The right token came from this address: its wrong ones no longer count. */
  forget(address: string): void {
    this.failures.delete(address);
  }

  /** How many addresses are remembered (the bound's test reads it). */
  get size(): number {
    return this.failures.size;
  }

  private recent(address: string): number[] {
    const times = this.failures.get(address);
    if (!times) return [];
    const since = this.now() - SIGN_IN_TRIES.windowMs;
    const recent = times.filter((t) => t > since);
    if (recent.length === 0) this.failures.delete(address);
    return recent;
  }
}
