import { describe, expect, it } from 'vitest';
import {
  DO_NOT_DISRUPT,
  protectAnnotations,
  RECORD,
  releaseAnnotations,
  SCALE_DOWN_DISABLED,
} from '../../../src/kube/autoscaler-annotations.js';

/** The node's annotations once a merge patch's annotations are applied (null removes). */
function applied(
  annotations: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string | null>> | null,
): Record<string, string> {
  const result: Record<string, string> = { ...annotations };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

interface Case {
  readonly name: string;
  readonly before: Readonly<Record<string, string>>;
  /** The annotations while the node is out for maintenance. */
  readonly during: Readonly<Record<string, string>>;
}

const cases: Case[] = [
  {
    name: 'a node without either annotation gets both, and loses both when it returns',
    before: { other: 'x' },
    during: {
      other: 'x',
      [SCALE_DOWN_DISABLED]: 'true',
      [DO_NOT_DISRUPT]: 'true',
      [RECORD]: JSON.stringify({ [SCALE_DOWN_DISABLED]: null, [DO_NOT_DISRUPT]: null }),
    },
  },
  {
    name: 'an annotation the node had already is not recorded, and stays when it returns',
    before: { [DO_NOT_DISRUPT]: 'true' },
    during: {
      [SCALE_DOWN_DISABLED]: 'true',
      [DO_NOT_DISRUPT]: 'true',
      [RECORD]: JSON.stringify({ [SCALE_DOWN_DISABLED]: null }),
    },
  },
  {
    name: 'an annotation that said "false" is set to "true", and says "false" again when the node returns',
    before: { [SCALE_DOWN_DISABLED]: 'false', [DO_NOT_DISRUPT]: 'true' },
    during: {
      [SCALE_DOWN_DISABLED]: 'true',
      [DO_NOT_DISRUPT]: 'true',
      [RECORD]: JSON.stringify({ [SCALE_DOWN_DISABLED]: 'false' }),
    },
  },
  {
    name: 'a node that had both is not written at all',
    before: { [SCALE_DOWN_DISABLED]: 'true', [DO_NOT_DISRUPT]: 'true' },
    during: { [SCALE_DOWN_DISABLED]: 'true', [DO_NOT_DISRUPT]: 'true' },
  },
];

describe('autoscaler annotations through a maintenance', () => {
  it.each(cases)('$name', ({ before, during }) => {
    const out = applied(before, protectAnnotations(before));
    expect(out).toEqual(during);
    expect(applied(out, releaseAnnotations(out))).toEqual(before);
  });

  it('a node protected already (its record there: a drain interrupted, run again) is not written again', () => {
    const out = applied({}, protectAnnotations({}));
    expect(protectAnnotations(out)).toBeNull();
    expect(applied(out, releaseAnnotations(out))).toEqual({});
  });

  it('an annotation someone changed since is theirs: it stays as they left it', () => {
    const out = applied({}, protectAnnotations({}));
    const changed = { ...out, [DO_NOT_DISRUPT]: 'false' };
    expect(applied(changed, releaseAnnotations(changed))).toEqual({ [DO_NOT_DISRUPT]: 'false' });
  });

  it('a node without a record is given nothing back', () => {
    expect(releaseAnnotations({ [SCALE_DOWN_DISABLED]: 'true' })).toBeNull();
    expect(releaseAnnotations(undefined)).toBeNull();
  });

  it('a record edited by hand is removed, and names nothing else to remove', () => {
    const out = { [SCALE_DOWN_DISABLED]: 'true', [RECORD]: '{"kubernetes.io/hostname":null}' };
    expect(releaseAnnotations(out)).toEqual({ [RECORD]: null });
    expect(releaseAnnotations({ [RECORD]: 'not json' })).toEqual({ [RECORD]: null });
  });
});
