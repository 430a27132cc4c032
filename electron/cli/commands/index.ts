// Every `citewise` command, in the order the help lists them. A command is declared once, in its own
// file (its name, help, options and run); this list only says where each is, so that a command's
// modules load when it runs (loading them all took 0.3 s before any command could start).
import type { CommandSpec } from '../command';

const COMMANDS: Record<string, () => Promise<{ command: CommandSpec }>> = {
  serve: () => import('./serve'),
  key: () => import('./key'),
  import: () => import('./import'),
  add: () => import('./add'),
  enrich: () => import('./enrich'),
  check: () => import('./check'),
  export: () => import('./export'),
  search: () => import('./search'),
  stats: () => import('./stats'),
  fulltext: () => import('./fulltext'),
  backup: () => import('./backup'),
  restore: () => import('./restore'),
  styles: () => import('./styles'),
  tags: () => import('./tags'),
  'auto-export': () => import('./auto-export'),
  keys: () => import('./keys'),
  api: () => import('./api'),
  manuscript: () => import('./manuscript'),
  document: () => import('./document'),
  sync: () => import('./sync'),
  server: () => import('./server'),
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** The declaration of the command called `name`, or undefined when there is none. */
export async function loadCommand(name: string): Promise<CommandSpec | undefined> {
  if (!Object.hasOwn(COMMANDS, name)) return undefined;
  const { command } = await COMMANDS[name]!();
  if (command.name !== name)
    throw new Error(`commands/index.ts lists "${name}" for the command declared as "${command.name}"`);
  return command;
}

/** All the declarations, in the help's order. */
export async function loadCommands(): Promise<CommandSpec[]> {
  return Promise.all(COMMAND_NAMES.map(async (name) => (await loadCommand(name))!));
}
