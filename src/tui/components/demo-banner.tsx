import { memo } from 'react';
import { seg } from '../theme.js';
import { LineText } from './line-text.js';

const TAG = ' DEMO ';
const NOT_REAL = 'prices, weather and trades are not real';

/**
 * Says, in words, that nothing on screen is real money or real weather. Where the whole sentence does not fit, the
 * host goes first (the status bar names it too), then "simulated service": "not real" is never the part cut.
 */
export const DemoBanner = memo(function DemoBanner({ width, host }: { width: number; host: string | null }) {
  const told = [
    ...(host ? [` simulated service at ${host}: ${NOT_REAL}`] : []),
    ` simulated service: ${NOT_REAL}`,
    ` ${NOT_REAL}`,
  ];
  // the shortest, cut at the edge, where not even it fits
  const fits = told.find((t) => TAG.length + t.length <= width) ?? ` ${NOT_REAL}`;
  return <LineText line={[seg(TAG, 'warn', true), seg(fits, 'warn')]} width={width} />;
});
