import { render, useApp, useInput } from 'ink';
import { useEffect, useState } from 'react';
import type { DrainPlan } from '../plan/types.js';
import { ColorContext } from './color-context.js';
import { PlanView } from './components/PlanView.js';
import { colorsEnabled } from './theme.js';

export interface PlanAppProps {
  plan: DrainPlan;
  /** Listen to keys: d toggles per-node reasons, q or Esc quits. When false, render once and exit. */
  interactive: boolean;
  width: number;
  colors: boolean;
}

/** The plan view plus its one piece of state (details shown or not) and its keys. */
export function PlanApp({ plan, interactive, width, colors }: PlanAppProps) {
  const { exit } = useApp();
  const [details, setDetails] = useState(false);
  useInput(
    (input, key) => {
      if (input === 'd') setDetails((shown) => !shown);
      else if (input === 'q' || key.escape) exit();
    },
    { isActive: interactive },
  );
  useEffect(() => {
    if (!interactive) exit();
  }, [interactive, exit]);
  return (
    <ColorContext.Provider value={colors}>
      <PlanView plan={plan} details={details} interactive={interactive} width={width} />
    </ColorContext.Provider>
  );
}

export interface PlanInkOptions {
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
  /** Default: stdin and stdout are terminals and stdin can enter raw mode. */
  readonly interactive?: boolean;
  /** Default: on unless NO_COLOR is set. */
  readonly colors?: boolean;
}

/**
 * Renders the plan on a terminal and resolves when the user quits (q, Esc, Ctrl-C), or right after the
 * first frame when stdin is not a terminal. The last frame stays on screen.
 */
export async function renderPlanInk(plan: DrainPlan, options: PlanInkOptions = {}): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const interactive =
    options.interactive ?? Boolean(stdin.isTTY && stdout.isTTY && typeof stdin.setRawMode === 'function');
  const instance = render(
    <PlanApp
      plan={plan}
      interactive={interactive}
      width={stdout.columns ?? 80}
      colors={options.colors ?? colorsEnabled()}
    />,
    { stdout, stdin, patchConsole: false },
  );
  await instance.waitUntilExit();
}
