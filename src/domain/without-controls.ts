// control characters (C0, DEL, C1) and the two Unicode line breaks
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Text from the service or a webhook as a single inert line: escape sequences (an OSC 52 would write the
 * clipboard), line breaks and other control characters become spaces, for the terminal and for the shell command
 * line node-notifier builds alike.
 */
export const withoutControls = (text: string): string => text.replace(CONTROLS, ' ');
