import type { RejectedDelivery } from '../../../cache/index.js';
import { escapedText } from '../../../domain/escaped-text.js';
import { type Line, line, seg } from '../../theme.js';

/** The most of a body the detail shows (the listener takes up to 1 MiB); `export rejected-webhooks` has it all. */
const SHOWN_BYTES = 16_384;

/**
 * The Alerts pane's detail of a rejected webhook: when, why, what it claimed to be, and its body as escaped text
 * (domain/escaped-text.ts), never raw: the bytes may hold anything, and a terminal obeys the control sequences in
 * what it is sent. No header of the request is kept, so no signature is shown.
 */
export function rejectedLines(rejected: readonly RejectedDelivery[], width: number): Line[] {
  const out: Line[] = [];
  for (const r of rejected) {
    out.push([], line(seg('rejected delivery', 'warn', true)));
    out.push(line(seg('received ', 'muted'), r.received_at));
    out.push(line(seg('reason   ', 'muted'), r.reason));
    const claimed = [r.event_type, r.event_id].filter((x) => x !== null).join('  ');
    if (claimed) out.push(line(seg('event    ', 'muted'), claimed));
    if (r.delivery_id !== null) out.push(line(seg('delivery ', 'muted'), r.delivery_id));
    const cut = r.body.length > SHOWN_BYTES;
    const size = cut ? `the first ${SHOWN_BYTES} of ${r.body.length} bytes` : `${r.body.length} bytes`;
    out.push(line(seg('body     ', 'muted'), `${size}, escaped: \\n \\t \\xff \\u{1b} stand for what is not shown`));
    const text = escapedText(cut ? r.body.subarray(0, SHOWN_BYTES) : r.body);
    for (const piece of pieces(text, Math.max(20, width - 2))) out.push(line(`  ${piece}`));
  }
  return out;
}

/** Hard-wrapped by code point: a body has no words to wrap at. */
function pieces(text: string, width: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  return out;
}
