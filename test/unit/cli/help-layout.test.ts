import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/ui/text-wrap.js';
import { buildProgram } from '../../../src/cli/main.js';

/** `kubectl maint COMMAND --help` as a terminal `columns` wide shows it. */
const program = await buildProgram();
function helpAt(columns: number, command?: string): string {
  const target = command ? program.commands.find((c) => c.name() === command)! : program;
  target.configureOutput({ getOutHelpWidth: () => columns });
  return target.helpInformation();
}

describe('help wrapped to the terminal', () => {
  it.each([60, 80, 100])('at %i columns no line of drain --help is longer than the terminal', (columns) => {
    const lines = helpAt(columns, 'drain').split('\n');
    expect(lines.filter((l) => l.length > columns)).toEqual([]);
    // Nothing is lost: the longest description is there, word for word.
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(
      'skip waiting for pods whose deletionTimestamp is older than this (seconds or a duration); 0 = never skip',
    );
  });

  it('wide enough, descriptions stay in a column beside the flags', () => {
    expect(helpAt(160, 'drain')).toMatch(/^ {2}--ignore-daemonsets +ignore DaemonSet-managed pods$/m);
  });

  it('narrower, each description goes under its flag, indented', () => {
    expect(helpAt(80, 'drain')).toMatch(/^ {2}--ignore-daemonsets\n {6}ignore DaemonSet-managed pods$/m);
  });

  it('the command list of kubectl maint --help fits 60 columns too', () => {
    expect(
      helpAt(60)
        .split('\n')
        .filter((l) => l.length > 60),
    ).toEqual([]);
  });
});

describe('a description under its flag', () => {
  it('is wrapped at a terminal as narrow as 30 columns, between words', () => {
    const descriptions = helpAt(30, 'drain')
      .split('\n')
      .filter((l) => l.startsWith(' '.repeat(6)));
    expect(descriptions.length).toBeGreaterThan(50);
    // Only a word longer than the line may pass its edge.
    expect(descriptions.filter((l) => l.length > 30 && /\S\s+\S/.test(l.trim()))).toEqual([]);
    expect(helpAt(30, 'drain')).toMatch(/^ {2}--ignore-daemonsets\n {6}ignore DaemonSet-managed\n {6}pods$/m);
  });
});

describe('every help at 80 columns', () => {
  /** Each command of the tree, nested ones too (`rbac plan`). */
  const commands = (root: typeof program): Array<typeof program> => [
    root,
    ...root.commands.flatMap((c) => commands(c)),
  ];

  /** The whole help a user sees, the text added before and after the usage included. */
  function fullHelp(command: typeof program, columns: number): string {
    let out = '';
    command.configureOutput({ getOutHelpWidth: () => columns, writeOut: (text) => (out += text) });
    command.outputHelp();
    return out;
  }

  it.each(commands(program).map((c) => [c.name(), c] as const))(
    '%s --help has no line over 80 columns',
    (_name, command) => {
      const long = fullHelp(command, 80)
        .split('\n')
        .filter((line) => displayWidth(line) > 80);
      expect(long).toEqual([]);
    },
  );
});
