import type { PlanDocument, SectionId } from './plan-document.js';
import { layoutBlocks, layoutSection, line, type StyledLine } from './plan-layout.js';
import { wrapText } from './text-wrap.js';

/**
 * The full-screen plan view without Ink: which lines are on screen for a (document, width, height,
 * scroll/fold state), and what each key does to that state. Pure, so every size and key is unit-tested;
 * plan-view.tsx only draws these lines and feeds keys back.
 *
 * Layout (after k9s's fixed header and lazygit's numbered panels and options bar):
 *   SLOW: draining k8s-node-1 waits for disruption budgets        <- pinned: the verdict, always visible
 *     - budget demo/hello lets 1 pod go at a time: 2 waves, …     <- body, scrolls: reasons, what to do,
 *   What to do:                                                      then the numbered sections
 *     - …
 *   ▾ 1 Pods on k8s-node-1 (4)
 *   …
 *   q quit · ↑↓ jk scroll · space page · g/G top/end · …  1-20/64 <- key hints and position
 */

export interface ScreenState {
  /** The first body line on screen. */
  readonly scroll: number;
  readonly folded: readonly SectionId[];
  /** Per-node reasons under each replacement. */
  readonly details: boolean;
  /** The section tab moved to; null: the one at the top of the body. */
  readonly focus: SectionId | null;
}

export const INITIAL_SCREEN_STATE: ScreenState = { scroll: 0, folded: [], details: false, focus: null };

export interface ScreenLayout {
  /** Exactly `height` lines (fewer only when the screen is shorter than the pinned lines), each ≤ width. */
  readonly lines: readonly StyledLine[];
  /** The state with scroll clamped to what this size allows. */
  readonly state: ScreenState;
  readonly bodyHeight: number;
  readonly maxScroll: number;
  /** Body line of each section's header, in order. */
  readonly sectionStarts: readonly { readonly id: SectionId; readonly line: number }[];
  /** The section enter/tab act on: the one tab moved to, else the last whose header is at or above the top. */
  readonly focused: SectionId | null;
}

/** The verdict never takes more than this many pinned lines; the rest of it scrolls with the body. */
const MAX_PINNED_LINES = 2;

export function layoutScreen(document: PlanDocument, width: number, height: number, state: ScreenState): ScreenLayout {
  const w = Math.max(1, width);
  const pinned = pinnedLines(document, w);
  const bodyHeight = Math.max(1, height - pinned.length - 1);
  const { lines: body, sectionStarts } = bodyLines(document, w, state.folded);
  const maxScroll = Math.max(0, body.length - bodyHeight);
  const scroll = Math.min(Math.max(0, state.scroll), maxScroll);
  const focused =
    state.focus && sectionStarts.some((s) => s.id === state.focus)
      ? state.focus
      : focusedSection(sectionStarts, scroll);
  const visible = body.slice(scroll, scroll + bodyHeight).map((l, i) => {
    const start = sectionStarts.find((s) => s.line === scroll + i);
    return start && start.id === focused ? { ...l, inverse: true } : l;
  });
  while (visible.length < bodyHeight) visible.push(line(''));
  const footer = footerLine(document, w, scroll, bodyHeight, body.length);
  return {
    lines: [...pinned, ...visible, footer].slice(0, Math.max(1, height)),
    state: { ...state, scroll },
    bodyHeight,
    maxScroll,
    sectionStarts,
    focused,
  };
}

function pinnedLines(document: PlanDocument, width: number): StyledLine[] {
  const wrapped = wrapText(document.headline, width);
  const shown = wrapped.slice(0, MAX_PINNED_LINES);
  if (wrapped.length > MAX_PINNED_LINES)
    shown[MAX_PINNED_LINES - 1] = `${shown[MAX_PINNED_LINES - 1]!.slice(0, width - 1)}…`;
  // Wrapped whole, never cut: it says what the plan below is about (the demo: which example, and its story).
  const title = document.title ? wrapText(document.title, width).map((t) => line(t, 'muted')) : [];
  return [...title, ...shown.map((t) => line(t, document.tone, true))];
}

/** Number keys fold the first nine sections. */
export function sectionNumber(index: number): string {
  return index < 9 ? `${index + 1} ` : '';
}

function bodyLines(
  document: PlanDocument,
  width: number,
  folded: readonly SectionId[],
): { lines: StyledLine[]; sectionStarts: { id: SectionId; line: number }[] } {
  const lines = layoutBlocks(document.verdict, width, 'screen');
  const sectionStarts: { id: SectionId; line: number }[] = [];
  document.sections.forEach((section, i) => {
    lines.push(line(''));
    sectionStarts.push({ id: section.id, line: lines.length });
    const isFolded = folded.includes(section.id);
    const marker = section.blocks.length === 0 ? ' ' : isFolded ? '▸' : '▾';
    const title = wrapText(`${marker} ${sectionNumber(i)}${section.title}`, width, '', '    ');
    lines.push(...title.map((t) => line(t, null, true)));
    if (!isFolded) lines.push(...layoutSection(section, width, 'screen'));
  });
  return { lines, sectionStarts };
}

function focusedSection(starts: readonly { id: SectionId; line: number }[], scroll: number): SectionId | null {
  let focused: SectionId | null = null;
  for (const start of starts) if (start.line <= scroll) focused = start.id;
  return focused;
}

/** Key hints, most useful first, as many as fit; the position on the right ("21-38/64"). */
const HINTS = [
  'q quit',
  '↑↓ scroll',
  'space page',
  'tab section',
  'enter fold',
  'd details',
  'g/G top/end',
  '1-9 fold',
  'jk PgUp/PgDn',
];

function footerLine(
  document: PlanDocument,
  width: number,
  scroll: number,
  bodyHeight: number,
  total: number,
): StyledLine {
  const last = Math.min(total, scroll + bodyHeight);
  const position = total <= bodyHeight ? 'all' : `${scroll + 1}-${last}/${total}`;
  const room = width - position.length - 2;
  let hints = '';
  const hintList = HINTS.map((h) => (h === 'q quit' && document.quitHint ? document.quitHint : h));
  for (const hint of hintList.slice(0, document.sections.length > 0 ? HINTS.length : 2)) {
    const next = hints ? `${hints} · ${hint}` : hint;
    if (next.length > room) break;
    hints = next;
  }
  const gap = Math.max(1, width - hints.length - position.length);
  return line(`${hints}${' '.repeat(gap)}${position}`.slice(0, width), 'muted');
}

export type ScreenAction =
  | { readonly type: 'scroll'; readonly by: number }
  | { readonly type: 'page'; readonly by: number }
  | { readonly type: 'top' }
  | { readonly type: 'bottom' }
  | { readonly type: 'section'; readonly by: 1 | -1 }
  | { readonly type: 'fold' }
  | { readonly type: 'fold-number'; readonly index: number }
  | { readonly type: 'details' }
  | { readonly type: 'quit' };

/** The parts of Ink's key object this view reads. */
export interface KeyPress {
  readonly upArrow?: boolean;
  readonly downArrow?: boolean;
  readonly pageUp?: boolean;
  readonly pageDown?: boolean;
  readonly home?: boolean;
  readonly end?: boolean;
  readonly return?: boolean;
  readonly tab?: boolean;
  readonly shift?: boolean;
  readonly escape?: boolean;
  readonly ctrl?: boolean;
}

export function keyAction(input: string, key: KeyPress): ScreenAction | null {
  if (key.escape || input === 'q' || (key.ctrl && input === 'c')) return { type: 'quit' };
  if (key.upArrow || input === 'k') return { type: 'scroll', by: -1 };
  if (key.downArrow || input === 'j') return { type: 'scroll', by: 1 };
  if (key.pageUp || input === 'b') return { type: 'page', by: -1 };
  if (key.pageDown || input === ' ') return { type: 'page', by: 1 };
  if (key.home || input === 'g') return { type: 'top' };
  if (key.end || input === 'G') return { type: 'bottom' };
  if (key.tab) return { type: 'section', by: key.shift ? -1 : 1 };
  if (key.return) return { type: 'fold' };
  if (input === 'd') return { type: 'details' };
  if (/^[1-9]$/.test(input)) return { type: 'fold-number', index: Number(input) - 1 };
  return null;
}

/**
 * The state after an action, given the layout it was taken on. Folding keeps the section's header at
 * the top, so the operator does not lose their place.
 */
export function applyAction(layout: ScreenLayout, action: ScreenAction): ScreenState {
  const { state, bodyHeight, maxScroll, sectionStarts } = layout;
  const at = (scroll: number): ScreenState => ({
    ...state,
    scroll: Math.min(Math.max(0, scroll), maxScroll),
    focus: null,
  });
  switch (action.type) {
    case 'scroll':
      return at(state.scroll + action.by);
    case 'page':
      return at(state.scroll + action.by * Math.max(1, bodyHeight - 1));
    case 'top':
      return at(0);
    case 'bottom':
      return at(maxScroll);
    case 'section': {
      const index = sectionStarts.findIndex((s) => s.id === layout.focused);
      const target = sectionStarts[Math.min(Math.max(0, index + action.by), sectionStarts.length - 1)];
      if (!target) return state;
      return { ...state, scroll: Math.min(target.line, maxScroll), focus: target.id };
    }
    case 'fold': {
      // Above the first section (the verdict's lines): fold the first section on screen.
      const id = layout.focused ?? sectionStarts.find((s) => s.line >= state.scroll)?.id;
      return id ? toggle(layout, id) : state;
    }
    case 'fold-number': {
      const id = sectionStarts[action.index]?.id;
      return id ? toggle(layout, id) : state;
    }
    case 'details':
      return { ...state, details: !state.details };
    case 'quit':
      return state;
  }
}

function toggle(layout: ScreenLayout, id: SectionId): ScreenState {
  const { state } = layout;
  const folded = state.folded.includes(id) ? state.folded.filter((f) => f !== id) : [...state.folded, id];
  const header = layout.sectionStarts.find((s) => s.id === id)?.line ?? state.scroll;
  // Keep the header where the operator is looking: at the top when it was above it, in place otherwise.
  return { ...state, folded, scroll: header < state.scroll ? header : state.scroll };
}

/**
 * What stays in the scrollback once the view closes: the verdict, its reasons and the command to run
 * next, wrapped to the terminal.
 */
export function screenSummary(document: PlanDocument, width: number): string {
  const lines = [
    ...wrapText(document.headline, width),
    ...layoutBlocks(document.verdict, width, 'summary').map((l) => l.text),
    ...(document.nextCommand ? wrapText(`Next: ${document.nextCommand}`, width, '', '  ') : []),
  ];
  return `${lines.join('\n')}\n`;
}
