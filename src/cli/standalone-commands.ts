/**
 * The commands run by the standalone CLI (standalone-main.ts) when the command line starts with one of
 * them, as each registers alone in the whole CLI too (commands/index.ts).
 */
export const STANDALONE_COMMANDS = ['cordon', 'uncordon', 'version'] as const;

export type StandaloneCommand = (typeof STANDALONE_COMMANDS)[number];

export function isStandaloneCommand(word: string | undefined): word is StandaloneCommand {
  return (STANDALONE_COMMANDS as readonly (string | undefined)[]).includes(word);
}
