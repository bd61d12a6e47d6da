import type { IncomingMessage } from 'node:http';

/** 1 MiB: no event comes near it, so anything larger is refused before it is read (spec 8 has no body limit). */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { kind: 'body'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * The raw request bytes, counted as they arrive so a chunked body cannot grow past the limit: at the first chunk
 * over it the read stops (the caller answers 413 and closes). A declared Content-Length over the limit never
 * starts the read. `hold` is asked before each chunk is kept (the listener's bytes-in-flight cap); false means the
 * connection was dropped to make room, and the read ends as aborted.
 */
export function readBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
  hold: (bytes: number) => boolean = () => true,
): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish({ kind: 'too-large' });
      } else if (!hold(chunk.length)) finish({ kind: 'aborted' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'body', bytes: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ kind: 'aborted' });
    const onClose = () => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
  });
}
