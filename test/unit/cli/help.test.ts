// The help is made from the commands' declarations: every declared command is in it with its usage
// and options, and a new declaration appears without any help text being edited.
import { describe, expect, it } from 'vitest';
import {
  commandHelp,
  programHelp,
  singleCommandHelp,
  UsageError,
  type CommandSpec,
} from '../../../electron/cli/command';
import { COMMAND_NAMES, loadCommand, loadCommands } from '../../../electron/cli/commands';

const frobnicate: CommandSpec = {
  name: 'frobnicate',
  help: [{ usage: 'frobnicate THING', text: 'Frobnicate a thing\nthoroughly' }],
  options: { level: { type: 'string', arg: 'N', help: 'How hard (default 3)' }, quiet: { type: 'boolean' } },
  run: () => Promise.resolve(0),
};

describe('citewise --help', () => {
  it('lists every declared command by its usage, with the options it describes', async () => {
    const specs = await loadCommands();
    expect(specs.map((s) => s.name)).toEqual(COMMAND_NAMES);
    const help = programHelp('9.9.9', specs);
    for (const spec of specs) {
      for (const entry of spec.help) expect(help).toContain(`\n  ${entry.usage}`);
      for (const [name, o] of Object.entries(spec.options)) if (o.help) expect(help).toContain(`--${name}`);
    }
    for (const name of [
      'serve',
      'key',
      'import',
      'add',
      'enrich',
      'check',
      'export',
      'search',
      'stats',
      'backup',
      'restore',
      'styles',
      'auto-export',
      'api',
      'manuscript',
    ]) {
      expect(COMMAND_NAMES).toContain(name);
    }
  });

  it('shows a new declaration without its help being written anywhere else', async () => {
    const before = programHelp('9.9.9', await loadCommands());
    expect(before).not.toContain('frobnicate');
    const after = programHelp('9.9.9', [...(await loadCommands()), frobnicate]);
    expect(after).toContain('  frobnicate THING Frobnicate a thing\n                   thoroughly\n');
    expect(after).toContain('    --level N      How hard (default 3)\n');
    // An option without help (a flag it only accepts) is not listed.
    expect(after).not.toContain('--quiet');
  });

  it('puts a long usage or option on a line of its own, its text under it', () => {
    const long: CommandSpec = {
      ...frobnicate,
      help: [{ usage: 'frobnicate VERY-LONG-THING', text: 'Text' }],
      options: { 'a-long-option-name': { type: 'string', arg: 'F', help: 'Its text' } },
    };
    expect(commandHelp(long)).toBe(
      '  frobnicate VERY-LONG-THING\n                   Text\n    --a-long-option-name F\n                   Its text',
    );
    // Up to one space short of the text's column: on the same line; one more letter: a line of its own.
    const fits: CommandSpec = { ...frobnicate, help: [{ usage: 'x'.repeat(16), text: 'Text' }], options: {} };
    expect(commandHelp(fits)).toBe(`  ${'x'.repeat(16)} Text`);
    const over: CommandSpec = { ...frobnicate, help: [{ usage: 'x'.repeat(17), text: 'Text' }], options: {} };
    expect(commandHelp(over)).toBe(`  ${'x'.repeat(17)}\n${' '.repeat(19)}Text`);
  });

  it('gives one command its own help, options included', async () => {
    const help = singleCommandHelp((await loadCommand('export'))!);
    expect(help).toContain('  export ');
    expect(help).toContain('--format F');
    expect(help).toContain('-o, --output FILE');
    expect(help).not.toContain('manuscript FILE');
  });

  it('names the built-in styles from the shared list, not a copy', async () => {
    const { CITATION_STYLE_IDS } = await import('../../../shared/model/csl');
    const help = commandHelp((await loadCommand('export'))!);
    expect(help).toContain(CITATION_STYLE_IDS.join(', '));
  });

  it('knows no command that is not declared', async () => {
    expect(await loadCommand('frobnicate')).toBeUndefined();
    expect(await loadCommand('toString')).toBeUndefined();
    expect(new UsageError('x')).toBeInstanceOf(Error);
  });
});
