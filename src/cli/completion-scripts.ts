/**
 * The scripts `kubectl maint completion SHELL` prints, for `kubectl-maint` typed as a command of its
 * own. Each asks the plugin itself (`kubectl-maint __complete ARGS… PARTIAL`, cobra's protocol: one
 * candidate a line, `value<TAB>description`, then `:DIRECTIVE`) and applies the directive's bits:
 * 1 error (offer nothing), 2 no space after the word, 4 no file names. Typed as `kubectl maint …`,
 * completion goes through kubectl's own script and `kubectl_complete-maint` instead.
 */

const PROGRAM = 'kubectl-maint';

export function completionScript(shell: 'bash' | 'zsh' | 'fish' | 'powershell'): string {
  return { bash, zsh, fish, powershell }[shell]();
}

function bash(): string {
  return `# bash completion for ${PROGRAM}; load it with: source <(${PROGRAM} completion bash)
_kubectl_maint_complete() {
    local cur words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur words cword
    else
        cur="\${COMP_WORDS[COMP_CWORD]}"; words=("\${COMP_WORDS[@]}"); cword=$COMP_CWORD
    fi
    local out directive
    out=$("\${words[0]}" __complete "\${words[@]:1:cword-1}" "$cur" 2>/dev/null) || return
    directive=\${out##*:}
    out=\${out%:*}
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    (( directive & 1 )) && return
    local value
    # --flag=partial: the shell replaces only what follows the '=' (a word break).
    [[ $cur == -*=* ]] && cur="\${cur#*=}"
    COMPREPLY=()
    while IFS= read -r value; do
        value=\${value%%$'\\t'*}
        [[ -n $value && $value == "$cur"* ]] && COMPREPLY+=("$value")
    done <<< "$out"
    (( directive & 2 )) && compopt -o nospace 2>/dev/null
    if (( \${#COMPREPLY[@]} == 0 )) && ! (( directive & 4 )); then
        compopt -o default 2>/dev/null
    fi
}
complete -o bashdefault -F _kubectl_maint_complete ${PROGRAM}
`;
}

function zsh(): string {
  return `#compdef ${PROGRAM}
# zsh completion for ${PROGRAM}; load it with: source <(${PROGRAM} completion zsh)
_kubectl_maint_complete() {
    local -a args candidates
    local out directive line
    args=("\${(@)words[2,CURRENT-1]}" "\${words[CURRENT]}")
    out=$(\${words[1]} __complete "\${(@)args}" 2>/dev/null) || return 1
    directive=\${\${(f)out}[-1]#:}
    (( directive & 1 )) && return 1
    for line in "\${(@f)out}"; do
        [[ $line == :* || -z $line ]] && continue
        candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    done
    if (( \${#candidates} == 0 )); then
        (( directive & 4 )) && return 1
        _files
        return
    fi
    local -a opts=()
    (( directive & 2 )) && opts+=(-S '')
    _describe -t values 'kubectl maint' candidates "\${opts[@]}"
}
compdef _kubectl_maint_complete ${PROGRAM}
`;
}

function fish(): string {
  return `# fish completion for ${PROGRAM}; load it with: ${PROGRAM} completion fish | source
function __kubectl_maint_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($words[1] __complete $words[2..-1] "$current" 2>/dev/null)
    set -l directive (string replace -r '^:' '' -- $out[-1])
    if test (math "$directive % 2") -eq 1
        return
    end
    for line in $out[1..-2]
        echo $line
    end
    if test (count $out) -eq 1; and test (math "floor($directive / 4) % 2") -eq 0
        __fish_complete_path $current
    end
end
complete -c ${PROGRAM} -f -a '(__kubectl_maint_complete)'
`;
}

function powershell(): string {
  return `# PowerShell completion for ${PROGRAM}; load it with: ${PROGRAM} completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -CommandName '${PROGRAM}' -Native -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $elements = $commandAst.CommandElements | ForEach-Object { $_.ToString() }
    $program = $elements[0]
    $before = @($elements | Select-Object -Skip 1)
    if ($wordToComplete -ne '' -and $before.Count -gt 0) { $before = @($before | Select-Object -SkipLast 1) }
    $out = @(& $program __complete @before "$wordToComplete" 2>$null)
    if ($out.Count -eq 0) { return }
    $directive = [int]($out[-1].TrimStart(':'))
    if (($directive -band 1) -ne 0) { return }
    $out | Select-Object -SkipLast 1 | ForEach-Object {
        $value, $description = $_ -split "\`t", 2
        if (-not $description) { $description = $value }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $description)
    }
}
`;
}
