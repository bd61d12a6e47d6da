import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

/**
 * Open connections at most. The service's dispatcher needs a few (one a delivery in flight, kept alive); 256 is
 * ample room for it and for a monitor's own tests, and keeps the listener far below the usual limit of 1,024 files:
 * at that limit 1,150 slow connections had left no file for a real delivery.
 */
const MAX_CONNECTIONS = 256;
/**
 * Files kept out of the connections' reach under a lower `ulimit -n`: the cache, its WAL and shared memory, the
 * WAL's sync handle, Node's own (stdio, epoll, the thread pool's pipes) and notify-send's pipes, with room to spare.
 */
const FILES_KEPT_FREE = 64;
/**
 * Unfinished request bodies held in memory at most, all connections together. A delivery is a few KB; 16 MiB is
 * thousands of them at once, or 16 at the 1 MiB body limit. Unbounded, 400 senders each trickling 1 MiB took the
 * listener from 100 to 515 MB.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 16 * 1024 * 1024;
/**
 * A connection younger than this has not had the time to show its pace, so it is dropped only after every older
 * one: a real delivery, headers and body, arrives well within it.
 */
const GRACE_MS = 1_000;

interface Tracked {
  socket: Socket;
  /** When the connection's current stretch began: it opened, or its last answer went out. */
  since: number;
  /** `socket.bytesRead` then: what it sent since is its pace. */
  bytesAtSince: number;
  /** Its request is read and being verified, committed or answered: never dropped. */
  answering: boolean;
  /** It carried a correctly signed delivery: dropped only when nothing else can be. */
  signed: boolean;
  /** Bytes of its unfinished body held in memory. */
  held: number;
}

/** The connection cap for this process: MAX_CONNECTIONS, or fewer when its open-files limit is lower. */
function connectionCap(limitsFile = '/proc/self/limits'): number {
  let files = Number.POSITIVE_INFINITY;
  try {
    const limit = readFileSync(limitsFile, 'utf8').match(/^Max open files\s+(\d+)/m)?.[1];
    if (limit !== undefined) files = Number(limit);
  } catch {
    // not Linux: the cap alone
  }
  return Math.max(16, Math.min(MAX_CONNECTIONS, files - FILES_KEPT_FREE));
}

/**
 * Caps the listener's connections and the bytes of unfinished bodies it holds. When either is full it makes room
 * by dropping the slowest connection rather than refusing the newcomer, so a flood of slow senders cannot keep a
 * real delivery out: connections that never carried a signed delivery go first, those past GRACE_MS before the
 * younger ones, and among them the one that sent the fewest bytes a second since it opened or was last answered
 * (an idle one sent none; of two equally slow, the older goes).
 */
export class ConnectionGuard {
  private readonly open = new Map<Socket, Tracked>();
  private held = 0;
  /** Connections dropped to make room, since the start. */
  dropped = 0;

  private readonly maxConnections: number;
  private readonly maxHeld: number;
  private readonly now: () => number;
  private readonly onDrop: (why: 'connections' | 'bodies') => void;

  constructor(
    options: {
      maxConnections?: number;
      maxHeld?: number;
      now?: () => number;
      /** After each connection dropped to make room, and which limit was full. */
      onDrop?: (why: 'connections' | 'bodies') => void;
    } = {},
  ) {
    this.maxConnections = options.maxConnections ?? connectionCap();
    this.maxHeld = options.maxHeld ?? MAX_BODY_BYTES_IN_FLIGHT;
    this.now = options.now ?? Date.now;
    this.onDrop = options.onDrop ?? (() => {});
  }

  /** The connection cap in force (MAX_CONNECTIONS, or lower under a low open-files limit). */
  get connectionLimit(): number {
    return this.maxConnections;
  }

  /** A new connection; over the cap, the slowest other one is dropped (or this one, when all others answer). */
  admit(socket: Socket): void {
    const tracked: Tracked = {
      socket,
      since: this.now(),
      bytesAtSince: 0,
      answering: false,
      signed: false,
      held: 0,
    };
    this.open.set(socket, tracked);
    socket.once('close', () => {
      this.release(tracked);
      this.open.delete(socket);
    });
    if (this.open.size > this.maxConnections)
      this.drop(this.slowest((t) => t.socket !== socket) ?? tracked, 'connections');
  }

  /**
   * `bytes` more of the body arriving on `socket`, to be held until it is complete. Over the cap, the slowest
   * connections holding a body are dropped until it fits; false when that was this one (stop reading).
   */
  hold(socket: Socket, bytes: number): boolean {
    const tracked = this.open.get(socket);
    if (!tracked) return false;
    tracked.held += bytes;
    this.held += bytes;
    while (this.held > this.maxHeld) {
      const victim: Tracked = this.slowest((t) => t.held > 0) ?? tracked;
      this.drop(victim, 'bodies');
      if (victim === tracked) return false;
    }
    return true;
  }

  /** The body of `socket`'s request is read (or was refused): no longer held; `answering` until answered. */
  bodyRead(socket: Socket, answering: boolean): void {
    const tracked = this.open.get(socket);
    if (!tracked) return;
    this.release(tracked);
    tracked.answering = answering;
  }

  /** `socket`'s answer went out; `signed` when its request carried a valid signature. Its pace is counted anew. */
  answered(socket: Socket, signed: boolean): void {
    const tracked = this.open.get(socket);
    if (!tracked) return;
    this.release(tracked);
    tracked.answering = false;
    tracked.signed ||= signed;
    tracked.since = this.now();
    tracked.bytesAtSince = socket.bytesRead;
  }

  get connections(): number {
    return this.open.size;
  }

  private release(tracked: Tracked): void {
    this.held -= tracked.held;
    tracked.held = 0;
  }

  private drop(tracked: Tracked, why: 'connections' | 'bodies'): void {
    this.release(tracked);
    this.open.delete(tracked.socket);
    this.dropped++;
    tracked.socket.destroy();
    this.onDrop(why);
  }

  /** The connection to drop first among those `eligible` that are not answering, or undefined. */
  private slowest(eligible: (t: Tracked) => boolean): Tracked | undefined {
    const now = this.now();
    let worst: Tracked | undefined;
    let worstKey: [number, number, number] | undefined;
    for (const t of this.open.values()) {
      if (t.answering || !eligible(t)) continue;
      const age = now - t.since;
      const young = age < GRACE_MS;
      // young ones by age alone: they have not had time to show a pace
      const pace = young ? 0 : (t.socket.bytesRead - t.bytesAtSince) / Math.max(age, 1);
      const key: [number, number, number] = [Number(t.signed), Number(young), pace];
      if (worstKey === undefined || before(key, t.since, worstKey, worst?.since ?? 0)) {
        worst = t;
        worstKey = key;
      }
    }
    return worst;
  }
}

/** Whether a connection ranked `a` (opened or last answered at `aSince`) is dropped before one ranked `b`. */
function before(a: [number, number, number], aSince: number, b: [number, number, number], bSince: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return aSince < bSince;
}
