import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainLogLine } from '../../../../src/ui/components/DrainLogLine.js';
import { Tone } from '../../../../src/ui/components/Tone.js';

// Text from the cluster (an event's or the API's message, an annotation) in the live views.
describe('text from the cluster on the live views', () => {
  it('reaches the terminal without its control sequences, in a tone or in a log line', () => {
    const hostile = 'budget\u001b]0;pwned\u0007 says\u001b[2J no';
    expect(render(<Tone tone="warn">{hostile}</Tone>).lastFrame()).toBe('budget says no');
    const entry = { id: '0', kind: 'warning', atMs: 0, message: hostile } as const;
    expect(render(<DrainLogLine entry={entry} startedAtMs={0} />).lastFrame()).toBe(' 0:00 ! budget says no');
  });
});
