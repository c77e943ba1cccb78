import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ReplacementList } from '../../../../src/ui/components/ReplacementList.js';
import { replacementLines } from '../../../../src/ui/plan-sections.js';
import { blockedPlan } from '../plan-fixture.js';

describe('<ReplacementList />', () => {
  const lines = replacementLines(blockedPlan());

  it("shows the target node or the scheduler's message, without per-node reasons by default", () => {
    const { lastFrame } = render(
      <Box width={100}>
        <ReplacementList lines={lines} unreplaced={[]} details={false} />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "demo/hello-a   unschedulable: 0/3 nodes are available: 1 node(s) didn't match pod topology spread
                     constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.
      demo/hello-b   -> k8s-node-2"
    `);
    expect(lastFrame()).not.toContain('not on');
  });

  it("adds each rejected node's reasons, in the scheduler's words, with details on", () => {
    const { lastFrame } = render(<ReplacementList lines={lines} unreplaced={[]} details />);
    expect(lastFrame()).toContain("    not on k8s-node-2: node(s) didn't match pod topology spread constraints");
    expect(lastFrame()).toContain('    not on k8s-master-1: node(s) had untolerated taint(s)');
  });

  it('names the pods nothing recreates', () => {
    const { lastFrame } = render(<ReplacementList lines={[]} unreplaced={['demo/lonely']} details={false} />);
    expect(lastFrame()).toBe('Not recreated by any controller: demo/lonely');
  });
});
