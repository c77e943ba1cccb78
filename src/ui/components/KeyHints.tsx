import { Tone } from './Tone.js';

/** The keys the plan view listens to, dim, at the bottom. */
export function KeyHints({ details }: { details: boolean }) {
  return <Tone tone="muted">{`d ${details ? 'hide' : 'show'} per-node reasons · q quit`}</Tone>;
}
