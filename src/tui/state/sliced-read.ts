// The one runner of a read in steps lives in the cache's layer, where the board, the feed and the panes all reach it.
export { type Running, readNow, readSliced, SLICE_MS, type SlicedRead } from '../../cache/index.js';
