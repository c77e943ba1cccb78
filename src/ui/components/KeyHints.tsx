import { Tone } from './Tone.js';

/** The keys the plan view listens to, dim, at the bottom. */
export function KeyHints({ details }: { details: boolean }) {
  return <Tone tone="muted">{`d ${details ? 'hide' : 'show'} details (per-node reasons, every caveat) · q quit`}</Tone>;
}
