/**
 * `PRAGMA application_id` of the two kinds of SQLite file this package writes. Each side reads both before it
 * writes a byte to a file, so the monitor never adopts a server store and the server never adopts a cache: kept
 * here, beside neither, so neither side has to import the other.
 */

/** The monitor's cache ("SVMC"). */
export const CACHE_APPLICATION_ID = 0x53564d43;

/** The reference service's store ("SVMS"). */
export const STORE_APPLICATION_ID = 0x53564d53;
