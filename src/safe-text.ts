import { stripVTControlCharacters } from 'node:util';

/**
 * Text from outside (the operator's command's output, messages and annotations read from the cluster) made
 * safe to show a person: no terminal control sequence reaches the screen, a file or a pipe. Gone are
 * escape sequences (CSI such as `ESC[2J`, OSC such as the title `ESC]0;…BEL` or the clipboard write
 * `ESC]52;…`, and the DCS, SOS, PM and APC strings Node's stripVTControlCharacters leaves), then every other
 * C0 and C1 control character and DEL. Tabs stay. Kept outside the layers: run/ writes the command's log
 * with it, ui/ renders with it.
 */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  if (!/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(text)) return text;
  return stripVTControlCharacters(text.replace(CONTROL_STRINGS, '')).replace(CONTROLS, '');
}

/** DCS, SOS, PM and APC (ESC P, X, ^, _ or their C1 forms) and OSC in its C1 form, up to their string terminator, or to the end. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL_STRINGS = /(?:\u001b[PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u001b\\|\u009c|\u0007|$)/g;
/** C0 but tab, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** safeText of each line of a text of several lines: its newlines kept. */
export function safeLines(text: string): string {
  return text.split('\n').map(safeText).join('\n');
}
