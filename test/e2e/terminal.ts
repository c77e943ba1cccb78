import { execa } from 'execa';
import { eventually, labEnv } from './lab.js';

/**
 * A real terminal for the e2e tests: one tmux session on a tmux server of its own (its own socket, so
 * parallel files and an operator's tmux never meet), sized as asked, with the lab's kubeconfig. Each
 * open() takes a new socket: a server whose last session was just killed exits, and a client that
 * reaches it while it does fails with "server exited unexpectedly" (seen in CI).
 */
export class Terminal {
  private opened = 0;
  private socket: string;

  constructor(private readonly session: string) {
    this.socket = this.socketFor(0);
  }

  private socketFor(n: number): string {
    return `maint-${this.session}-e2e-${process.pid}-${n}`;
  }

  tmux(...args: string[]) {
    return execa('tmux', ['-L', this.socket, ...args]);
  }

  /**
   * Starts `command` in a columns × rows terminal. The command should say `env -u CI -u
   * CONTINUOUS_INTEGRATION`: under CI=true Ink draws only the last frame (is-in-ci), so no live view shows.
   */
  async open(command: string, columns = 160, rows = 50): Promise<void> {
    const { KUBECONFIG } = await labEnv();
    this.socket = this.socketFor(++this.opened);
    await this.tmux(
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      String(columns),
      '-y',
      String(rows),
      '-e',
      `KUBECONFIG=${KUBECONFIG}`,
      command,
    );
  }

  /** Opens an operator's shell whose prompt is `prompt`, once the prompt shows. */
  async openShell(prompt: string, columns: number, rows: number, env = ''): Promise<void> {
    await this.open(
      `env -u CI -u CONTINUOUS_INTEGRATION ${env} PS1='${prompt} ' bash --norc --noprofile`,
      columns,
      rows,
    );
    await this.eventually(async () => (await this.history()).includes(prompt), 10_000, 'the shell prompt');
  }

  /** The visible screen, one string per row (tmux drops trailing spaces). */
  async rows(): Promise<string[]> {
    return String((await this.tmux('capture-pane', '-p', '-t', this.session)).stdout).split('\n');
  }

  /** Everything the terminal shows, scrollback included, wrapped lines joined. */
  async history(lines = 1000): Promise<string> {
    return String((await this.tmux('capture-pane', '-p', '-J', '-S', `-${lines}`, '-t', this.session)).stdout);
  }

  /** Presses keys (tmux key names: 'Enter', 'C-c', 'G'). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', this.session, ...keys);
  }

  /** Types a command line into the shell and runs it. */
  async type(line: string): Promise<void> {
    await this.tmux('send-keys', '-t', this.session, '-l', line);
    await this.keys('Enter');
  }

  /**
   * eventually() for a wait on this terminal: when it times out, the error carries what the terminal
   * showed then (describe()), so a failure in CI can be read from its log alone.
   */
  async eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
    try {
      return await eventually(check, timeoutMs, what);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${await this.describe()}`, {
        cause: error,
      });
    }
  }

  /**
   * The pane as tmux holds it, for a failure message: its size, cursor and whether its command still
   * runs, the last `scrollback` rows above the screen, then the visible rows, numbered, as drawn (wrapped
   * rows not joined, so a half frame or a row cut at the edge shows as it is).
   */
  async describe(scrollback = 200): Promise<string> {
    const capture = async (...args: string[]) =>
      String((await this.tmux('capture-pane', '-p', '-t', this.session, ...args)).stdout);
    try {
      const { stdout: pane } = await this.tmux(
        'display-message',
        '-p',
        '-t',
        this.session,
        '#{history_size}|#{pane_width}x#{pane_height}, cursor at column #{cursor_x} row #{cursor_y}, ' +
          'command #{?pane_dead,exited,running}',
      );
      const [kept = '0', state] = String(pane).split('|');
      const rows = Math.min(scrollback, Number(kept));
      const above = rows > 0 ? (await capture('-S', `-${rows}`, '-E', '-1')).split('\n') : [];
      const screen = (await capture()).split('\n');
      return [
        `terminal ${this.session}: ${state}, ${kept} rows of scrollback`,
        `--- the last ${above.length} rows of scrollback ---`,
        ...above,
        `--- the screen (${screen.length} rows) ---`,
        ...screen.map((row, i) => `${String(i).padStart(3)}|${row}`),
        '--- end of the screen ---',
      ].join('\n');
    } catch (error) {
      return `terminal ${this.session}: not readable (${error instanceof Error ? error.message : String(error)})`;
    }
  }

  async resize(columns: number, rows: number): Promise<void> {
    await this.tmux('resize-window', '-t', this.session, '-x', String(columns), '-y', String(rows));
  }

  /**
   * Gives the terminal a new size between two writes of the command open() started. A terminal re-wraps
   * its rows the moment it is resized, while its program learns the size only when it handles SIGWINCH:
   * what the program writes before that, for the old width, lands on the re-wrapped rows, which no
   * program can help. So the programs are stopped until the terminal has taken what they wrote and the
   * pty has the new size, then continued with SIGWINCH pending: what they write next, they write able to
   * know the new size. Stopped: every process of the pane's session but the pane's own (the shell that
   * runs the command line), which tmux would continue at once.
   */
  async resizeBetweenWrites(columns: number, rows: number): Promise<void> {
    const pane = String(
      (await this.tmux('display-message', '-p', '-t', this.session, '#{pane_pid} #{pane_tty}')).stdout,
    );
    const [shell = '', tty = ''] = pane.split(' ');
    const processes = async () =>
      String((await execa('ps', ['-o', 'pid=,stat=', '-s', shell])).stdout)
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(([pid]) => pid !== shell);
    const programs = (await processes()).map(([pid]) => Number(pid));
    if (programs.length === 0) throw new Error(`nothing runs in terminal ${this.session} but its shell`);
    const signal = (name: NodeJS.Signals) => programs.forEach((pid) => process.kill(pid, name));
    signal('SIGSTOP');
    try {
      await this.eventually(
        async () => (await processes()).every(([, stat]) => stat?.startsWith('T')),
        10_000,
        'the programs to stop',
      );
      // A request to tmux once they stand still: tmux reads the pane in the loop that answers it, so the
      // resize that follows re-wraps everything they wrote.
      await this.rows();
      await this.resize(columns, rows);
      const size = `${rows} ${columns}`;
      await this.eventually(
        async () => String((await execa('stty', ['-F', tty, 'size'])).stdout) === size,
        10_000,
        `the pty's size to be ${size}`,
      );
    } finally {
      signal('SIGCONT');
    }
  }

  /** Stops the tmux server of the last open() and everything running in it. */
  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
  }
}

/** Whitespace collapsed, so a text can be found however the screen wrapped it. */
export const flat = (text: string) => text.replace(/\s+/g, ' ');
