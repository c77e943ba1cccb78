import { Box, render, Text, useApp, useInput, useWindowSize } from 'ink';
import { useMemo, useState } from 'react';
import type { ClusterAudit } from '../plan/audit-types.js';
import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';
import { auditDocument } from './audit-text.js';
import { planDocument, type PlanDocument } from './plan-document.js';
import type { StyledLine } from './plan-layout.js';
import { applyAction, INITIAL_SCREEN_STATE, keyAction, layoutScreen, screenSummary } from './plan-screen.js';
import { poolPlanDocument } from './pool-plan-text.js';
import { colorsEnabled, toneColor } from './theme.js';
import { safeLines } from '../safe-text.js';

export interface PlanScreenProps {
  /** A drain's plan, a pool's (batch by batch), or the cluster audit (each node on its own). */
  readonly plan: ScreenDocument;
  /** The command to run next, with the user's own flags. */
  readonly nextCommand?: string | undefined;
  readonly colors: boolean;
  /** A line above the headline, and what q does when it does more than quit (PlanDocument). */
  readonly title?: string | undefined;
  readonly quitHint?: string | undefined;
}

/**
 * The full-screen plan: a thin shell over plan-screen.ts, which decides every line. This component only
 * keeps the scroll/fold state, reads the window size (re-laying out on resize) and draws.
 */
export function PlanScreen({ plan, nextCommand, colors, title, quitHint }: PlanScreenProps) {
  const { exit } = useApp();
  const { columns, rows } = useWindowSize();
  const [state, setState] = useState(INITIAL_SCREEN_STATE);
  const document = useMemo(
    () => ({ ...documentOf(plan, state.details, nextCommand), title, quitHint }),
    [plan, state.details, nextCommand, title, quitHint],
  );
  const layout = layoutScreen(document, columns, rows, state);
  useInput((input, key) => {
    const action = keyAction(input, key);
    if (action === null) return;
    if (action.type === 'quit') return exit();
    setState((current) => {
      const doc =
        current.details === state.details
          ? document
          : { ...documentOf(plan, current.details, nextCommand), title, quitHint };
      return applyAction(layoutScreen(doc, columns, rows, current), action);
    });
  });
  return (
    <Box flexDirection="column" width={columns} height={layout.lines.length}>
      {layout.lines.map((l, i) => (
        <ScreenLine key={i} line={l} colors={colors} />
      ))}
    </Box>
  );
}

/** What the full-screen view shows. */
export type ScreenDocument = DrainPlan | PoolPlan | ClusterAudit;

/** What the screen lays out: a pool plan and an audit have no per-node details to show. */
function documentOf(plan: ScreenDocument, details: boolean, nextCommand: string | undefined): PlanDocument {
  if (plan.kind === 'ClusterAudit') return auditDocument(plan);
  return plan.kind === 'PoolPlan' ? poolPlanDocument(plan, nextCommand) : planDocument(plan, { details, nextCommand });
}

function ScreenLine({ line, colors }: { line: StyledLine; colors: boolean }) {
  return (
    <Text
      wrap="truncate-end"
      color={line.tone ? toneColor(line.tone, colors) : undefined}
      dimColor={line.tone === 'muted'}
      bold={line.bold}
      inverse={line.inverse ?? false}
    >
      {safeLines(line.text) || ' '}
    </Text>
  );
}

export interface PlanScreenOptions {
  readonly nextCommand?: string | undefined;
  /** A line above the headline, and what q does when it does more than quit (the demo's examples). */
  readonly title?: string | undefined;
  readonly quitHint?: string | undefined;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
  /** Default: on unless NO_COLOR is set. */
  readonly colors?: boolean;
}

/**
 * Opens the plan full-screen (alternate screen: nothing reaches the scrollback while it is open) and
 * resolves when the user quits with q, Esc or Ctrl-C; then the verdict, its reasons and the next command
 * are left in the scrollback, ending with a newline so the prompt starts on its own line. Only for a
 * terminal on both stdin and stdout: the caller prints text otherwise.
 */
export async function renderPlanScreen(plan: ScreenDocument, options: PlanScreenOptions = {}): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const instance = render(
    <PlanScreen
      plan={plan}
      nextCommand={options.nextCommand}
      colors={options.colors ?? colorsEnabled()}
      title={options.title}
      quitHint={options.quitHint}
    />,
    { stdout, stdin, alternateScreen: true, interactive: true, patchConsole: false, exitOnCtrlC: true },
  );
  await instance.waitUntilExit();
  stdout.write(safeLines(screenSummary(documentOf(plan, false, options.nextCommand), stdout.columns || 80)));
}
