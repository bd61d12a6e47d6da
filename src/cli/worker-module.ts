import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` of this folder (`demo-world`, `session/worker`): the built `.js` beside
 * this one; under the tests, which run the TypeScript sources, the `.ts` loaded through tsx (a dev dependency) from a
 * small module of its own.
 */
export function startModuleWorker(name: string, options: WorkerOptions = {}): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const module = pathToFileURL(join(dirname(here), `${name}.ts`)).href;
  const loader = `const { tsImport } = await import(${JSON.stringify(tsx)}); await tsImport(${JSON.stringify(module)}, ${JSON.stringify(module)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(loader)}`), options);
}

/**
 * One question to a worker thread (`what` names it in errors): posts `message` and waits for the answer of the type
 * named, or a `failed` answer, which rejects as `failure` words it; a thread that ends or throws first rejects too.
 */
export function askWorker<Answer extends { type: string }>(
  worker: Worker,
  what: string,
  message: unknown,
  answer: Answer['type'],
  failure: (reply: Answer) => Error,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: Answer) => {
      if (reply.type !== answer && reply.type !== 'failed') return;
      cleanup();
      if (reply.type === 'failed') reject(failure(reply));
      else resolve(reply);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`${what} stopped (exit ${code}) before it answered`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(message);
  });
}
