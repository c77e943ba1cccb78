import { InvalidArgumentError } from 'commander';
import { parseLabelSelector } from '../snapshot/label-selector.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's longest time.Duration (2^63-1 ns, about 292 years), in ms: kubectl refuses longer durations. */
export const MAX_DURATION_MS = 9_223_372_036_854;

/**
 * Parses a duration flag the way kubectl users write them: Go's `time.ParseDuration` form (`50s`, `2m`,
 * `1h30m`, `500ms`), or a plain number of seconds (`--request-timeout=5`, `--skip-wait-for-delete-timeout=30`
 * as kubectl drain takes it). Returns milliseconds. Throws commander's InvalidArgumentError, so a bad
 * value is a usage error (exit 2) naming the flag.
 */
export function parseDurationMs(text: string): number {
  const value = text.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) ms = Math.round(Number(value) * 1000);
  else {
    const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (value === '' || parts.map((p) => p[0]).join('') !== value) {
      throw new InvalidArgumentError('expected a duration such as 50s, 2m, 1h30m or a number of seconds.');
    }
    ms = Math.round(parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0));
  }
  if (ms > MAX_DURATION_MS) throw new InvalidArgumentError('duration out of range (at most 2562047h, as in kubectl).');
  return ms;
}

/** The same, in whole seconds (rounded up, so "500ms" is not silently 0). */
export function parseDurationSeconds(text: string): number {
  return Math.ceil(parseDurationMs(text) / 1000);
}

/** A non-negative integer flag (`--chunk-size`). */
export function parseCount(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError('expected a whole number (0 or more).');
  return inRange(Number(text));
}

/**
 * A whole number of seconds, negative allowed (`--grace-period`). kubectl parses an int and the API
 * takes an int64; here the bound is the largest integer a JavaScript number holds exactly, so a value
 * that would reach the API server altered (and be refused there, after the cordon) is refused now.
 */
export function parseWholeSeconds(text: string): number {
  if (!/^-?\d+$/.test(text.trim())) throw new InvalidArgumentError('expected a whole number of seconds.');
  return inRange(Number(text));
}

function inRange(value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidArgumentError(`value out of range (at most ${Number.MAX_SAFE_INTEGER} in absolute value).`);
  }
  return value;
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
