import { Argument, type Command } from 'commander';
import { completionScript } from '../completion-scripts.js';
import { SHELLS } from '../completion.js';
import { writeOut } from '../output.js';

export function register(program: Command): void {
  program
    .command('completion')
    .summary('print a shell completion script for kubectl-maint (bash, zsh, fish, powershell)')
    .description(
      'Print the completion script for a shell: subcommands, flags, -o values and the live nodes of the ' +
        'cluster.\n\n' +
        '  source <(kubectl-maint completion bash)          # bash; zsh alike\n' +
        '  kubectl-maint completion fish | source            # fish\n' +
        '  kubectl-maint completion powershell | Out-String | Invoke-Expression\n\n' +
        "Typed as `kubectl maint …`, completion comes through kubectl's own (source <(kubectl completion bash)), " +
        'which runs the kubectl_complete-maint executable shipped beside kubectl-maint: keep both on PATH.\n\n' +
        "In bash, kubectl's script needs the bash-completion package, loaded first (apt install bash-completion; " +
        'brew install bash-completion@2): without it, <TAB> after `kubectl maint` offers nothing and says nothing. ' +
        "This command's bash script works with or without it.",
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action((shell: (typeof SHELLS)[number]) => {
      writeOut(completionScript(shell));
    });
}
