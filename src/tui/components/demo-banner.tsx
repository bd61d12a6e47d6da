import { memo } from 'react';
import { seg } from '../theme.js';
import { LineText } from './line-text.js';

/** Says, in words, that nothing on screen is real money or real weather. */
export const DemoBanner = memo(function DemoBanner({ width, host }: { width: number; host: string | null }) {
  const l = [
    seg(' DEMO ', 'warn', true),
    seg(` simulated service${host ? ` at ${host}` : ''}: prices, weather and trades are not real`, 'warn'),
  ];
  return <LineText line={l} width={width} />;
});
