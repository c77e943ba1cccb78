import type { Verdict } from '../plan/types.js';

/**
 * What a colour means, not which colour: views pick a tone, the theme maps it. Green is fine, yellow is
 * slow or needs a look, red blocks, muted is context.
 */
export type Tone = 'ok' | 'warn' | 'bad' | 'accent' | 'muted';

const TONE_COLORS: Record<Exclude<Tone, 'muted'>, string> = {
  ok: 'green',
  warn: 'yellow',
  bad: 'red',
  accent: 'cyan',
};

/**
 * no-color.org: NO_COLOR set to a non-empty value turns colour off. Ink's chalk honours FORCE_COLOR and
 * the TTY but not NO_COLOR, hence this check.
 */
export function colorsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const noColor = env['NO_COLOR'];
  return noColor === undefined || noColor === '';
}

/** The Ink colour for a tone, or undefined when colours are off (muted renders dim instead of grey). */
export function toneColor(tone: Tone, enabled: boolean): string | undefined {
  if (!enabled || tone === 'muted') return undefined;
  return TONE_COLORS[tone];
}

export const VERDICT_TONES: Record<Verdict, Tone> = {
  clear: 'ok',
  slow: 'warn',
  blocked: 'bad',
  disruptive: 'bad',
  incomplete: 'bad',
};
