import { Text } from 'ink';
import { useDeps } from '../state/monitor-context.js';
import { fitLine, type Line, mergeRuns, TONE_COLOR } from '../theme.js';

/** One screen line, cut and padded to `width`; with colour off it is plain text (no escape sequences at all). */
export function LineText({ line, width }: { line: Line; width: number }) {
  const { colour } = useDeps();
  const fitted = mergeRuns(fitLine(line, width));
  if (!colour) return <Text wrap="truncate">{fitted.map((s) => s.text).join('')}</Text>;
  return (
    <Text wrap="truncate">
      {fitted.map((s, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their place
          key={i}
          color={s.tone ? TONE_COLOR[s.tone] : undefined}
          bold={s.bold}
          inverse={s.inverse}
        >
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
