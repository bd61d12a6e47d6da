import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import net from 'node:net';
import { CLI } from '../cli/run-cli.js';
import { onFixtureClock } from './fixture-clock.js';
import { head } from './listener-harness.js';
import { type Delivery, PRIMARY_SECRET } from './webhook-events.js';

/**
 * A flood of slow unsigned senders against `svc-monitor listen` under `ulimit -n`: what the listener-limits test
 * checks the rules under (test/receiver/listener-limits.test.ts) and the listener-pressure benchmark times
 * (bench/listener-pressure.ts).
 */

export interface FileLimitedListener {
  child: ChildProcess;
  url: Promise<string>;
  exited: Promise<number | null>;
  output: { stdout: string; stderr: string };
}

/** `listen` as a child under `ulimit -n`: the same built CLI, its open files capped the way an operator caps them. */
export function listenWithFileLimit(dbFile: string, files: number, env: NodeJS.ProcessEnv): FileLimitedListener {
  // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
  onFixtureClock(dbFile);
  const args = ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', dbFile, '--no-notify'];
  const child = spawn('/bin/sh', ['-c', `ulimit -n ${files} && exec "$0" "$@"`, process.execPath, CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stderr?.on('data', (d) => {
    output.stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      output.stdout += d;
      const match = output.stdout.match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`exited ${code}; stderr: ${output.stderr}`)));
  });
  return { child, url, exited, output };
}

/** Resident memory of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1]) / 1024;
}

/** One delivery on a connection of its own (a new dispatcher socket, as after an idle gap); never rejects. */
export function postFresh(url: string, d: Delivery): Promise<{ status: number; ms: number; body: string }> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: d.headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - sent, body }));
    });
    req.on('error', (e) => resolve({ status: 0, ms: performance.now() - sent, body: e.message }));
    req.end(d.body);
  });
}

const CHUNK = Buffer.alloc(16 * 1024, 0x20);

/** What a flood did: the times the listener dropped one of its senders, and the body bytes they sent. */
export interface FloodStats {
  dropped: number;
  bytesSent: number;
}

/**
 * `senders` unsigned senders, started 4 ms apart, each declaring a 1 MiB body and trickling it, 16 KiB every
 * 100 ms (the whole body in 6.4 s, well within the 10 s a request may take); a sender dropped comes back after
 * 50 ms. They run until `stop()`, which resolves once every one has closed.
 */
export function flood(port: number, senders: number): { stats: FloodStats; stop(): Promise<void> } {
  const stats: FloodStats = { dropped: 0, bytesSent: 0 };
  const sockets = new Set<net.Socket>();
  let on = true;
  const sender = async (delayMs: number) => {
    await new Promise((r) => setTimeout(r, delayMs));
    while (on) {
      await new Promise<void>((done) => {
        const socket = net.connect(port, '127.0.0.1');
        sockets.add(socket);
        let timer: NodeJS.Timeout | undefined;
        socket.on('error', () => {});
        socket.on('close', () => {
          clearInterval(timer);
          sockets.delete(socket);
          if (on) stats.dropped++;
          done();
        });
        socket.on('connect', () => {
          socket.write(head('POST', '/', { 'Content-Type': 'application/json', 'Content-Length': 1024 * 1024 }));
          timer = setInterval(() => {
            if (!on) socket.destroy();
            else if (socket.write(CHUNK)) stats.bytesSent += CHUNK.length;
          }, 100);
        });
      });
      if (on) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const running = Array.from({ length: senders }, (_, i) => sender(i * 4));
  return {
    stats,
    async stop() {
      on = false;
      for (const socket of sockets) socket.destroy();
      await Promise.all(running);
    },
  };
}
