import { useState } from 'react';
import { useKeypress } from '../hooks/use-keypress.js';
import { hintOf, KEYS } from '../keys.js';
import { PRIORITY } from '../state/keypress-context.js';
import { line, seg } from '../theme.js';
import { LineText } from './line-text.js';

const K = KEYS.prompt;

/**
 * A one-line prompt. While it is open it has every key (typing `q` types a q): Enter submits, Esc cancels,
 * Backspace deletes.
 */
export function TextInput({
  prompt,
  initial,
  width,
  onSubmit,
  onCancel,
}: {
  prompt: string;
  initial: string;
  width: number;
  onSubmit(value: string): void;
  onCancel(): void;
}) {
  const [value, setValue] = useState(initial);
  useKeypress(PRIORITY.overlay, (input, key) => {
    if (K.submit.match(input, key)) onSubmit(value);
    else if (K.cancel.match(input, key)) onCancel();
    else if (K.erase.match(input, key)) setValue((v) => v.slice(0, -1));
    else if (!key.ctrl && !key.meta && isPrintable(input)) setValue((v) => v + input);
    return true;
  });
  return (
    <LineText
      line={line(
        seg(prompt, 'accent', true),
        value,
        seg('█', 'accent'),
        seg(`  ${hintOf(K.submit)} · ${hintOf(K.cancel)}`, 'muted'),
      )}
      width={width}
    />
  );
}

const isPrintable = (input: string) => input.length > 0 && [...input].every((ch) => ch >= ' ' && ch !== '\u007f');
