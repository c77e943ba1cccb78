import { InvalidArgumentError } from 'commander';
import { parseLabelSelector } from '../snapshot/label-selector.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration flag the way kubectl users write them: Go's `time.ParseDuration` form (`50s`, `2m`,
 * `1h30m`, `500ms`), or a plain number of seconds (`--request-timeout=5`, `--skip-wait-for-delete-timeout=30`
 * as kubectl drain takes it). Returns milliseconds. Throws commander's InvalidArgumentError, so a bad
 * value is a usage error (exit 2) naming the flag.
 */
export function parseDurationMs(text: string): number {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (value === '' || parts.map((p) => p[0]).join('') !== value) {
    throw new InvalidArgumentError('expected a duration such as 50s, 2m, 1h30m or a number of seconds.');
  }
  return Math.round(parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0));
}

/** The same, in whole seconds (rounded up, so "500ms" is not silently 0). */
export function parseDurationSeconds(text: string): number {
  return Math.ceil(parseDurationMs(text) / 1000);
}

/** A non-negative integer flag (`--chunk-size`). */
export function parseCount(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError('expected a whole number (0 or more).');
  return Number(text);
}

/** A label selector flag (`-l`, `--pod-selector`), checked before anything is read, as kubectl does. */
export function parseSelectorArg(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (err) {
    throw new InvalidArgumentError(`must be a valid label selector: ${(err as Error).message}.`);
  }
  return text;
}
