import { EVENT_TYPES, EXPORT_NAMES, HISTORICAL_TABLES, STREAM_NAMES } from '../contract/names.js';
import { withoutValues } from '../domain/without-values.js';

/**
 * What a user typed must not come back in an error: a key pasted into the wrong place (`listen --port KEY`,
 * `export KEY`, `server keys revoke KEY`) would be printed to the terminal, its scrollback and any log of it. An
 * error names the option and what it expects instead.
 */

/** Options whose value is a file or folder: errors must name it (`no cache at PATH`), so it is left in. */
const PATH_OPTIONS = new Set(['--db', '--data-dir']);
/**
 * Values shorter than this are left in: ports, hosts, ids and short words would garble messages if cut out of
 * them, and no key or secret is that short.
 */
const MIN_LENGTH = 12;
/** The program's own names: a valid one typed is not a secret, and the lists of valid names must stay whole. */
const VOCABULARY = new Set<string>([...EXPORT_NAMES, ...HISTORICAL_TABLES, ...EVENT_TYPES, ...STREAM_NAMES]);

/** The values on a command line (`process.argv`) that an error must not repeat; lists (`a,b`) by item too. */
export function typedValues(argv: readonly string[]): string[] {
  const values: string[] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) {
      values.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (PATH_OPTIONS.has(name)) {
      if (eq === -1) i++; // and its value, the next word
    } else if (eq !== -1) values.push(arg.slice(eq + 1));
  }
  const all = values.flatMap((v) => [v, ...v.split(',')]);
  return [...new Set(all)].filter((v) => v.length >= MIN_LENGTH && !VOCABULARY.has(v));
}

/** `text` with each typed value (as typed, URL-encoded or JSON-escaped) replaced by `…` (domain/without-values.ts). */
export const withoutTypedValues = withoutValues;

/**
 * commander's complaints, naming the option or argument and what it expects without the value it got
 * ("option '--port <n>' argument 'KEY' is invalid." becomes "option '--port <n>' is invalid: a port is ..."), and
 * `--name=value` keeps its name only. An unknown command keeps its name: one long enough to be a key is cut out
 * with every other typed value (withoutTypedValues).
 */
export function redactUsage(text: string): string {
  return text
    .replace(/^error: option '([^']*)' argument '[\s\S]*' is invalid\.\s*/, "error: option '$1' is invalid: ")
    .replace(
      /^error: option '([^']*)' value '[\s\S]*' from env '([^']*)' is invalid\.\s*/,
      "error: option '$1' (from $2) is invalid: ",
    )
    .replace(
      /^error: command-argument value '[\s\S]*' is invalid for argument '([^']*)'\.\s*/,
      "error: argument '$1' is invalid: ",
    )
    .replace(/(--?[\w-]+)=[^\n]*(?=')|(--?[\w-]+)=\S+/g, '$1$2=…');
}
