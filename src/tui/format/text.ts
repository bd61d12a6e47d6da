/** Fixed-width columns: terminal tables line up only when every cell is cut and padded to its width. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const cut = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return align === 'left' ? cut.padEnd(width) : cut.padStart(width);
}

/** Word-wraps free text (forecast reasoning, kill reasons) to `width`. */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current.length === 0) current = word;
    else if (current.length + 1 + word.length <= width) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
    while (current.length > width) {
      lines.push(current.slice(0, width));
      current = current.slice(width);
    }
  }
  if (current.length > 0) lines.push(current);
  return lines;
}
