// `citewise backup`: a verified backup of the library, and where it is.
import type { BackupInfo } from '../../core/library/backup';
import { defineCommand, type CommandContext, type ParsedCommand } from '../command';
import { noExtraArgs, printJson, withLibrary } from '../library-session';

export const command = defineCommand({
  name: 'backup',
  help: [{ usage: 'backup', text: 'Write a verified backup of the library and print where it is' }],
  options: { json: { type: 'boolean', help: 'Print the backup written as JSON' } },
  run: backupCommand,
});

export function backupJson(b: BackupInfo): unknown {
  return { file: b.file, reason: b.reason, createdAt: new Date(b.createdAt).toISOString(), size: b.size };
}

async function backupCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  noExtraArgs('backup', p.positionals);
  const info = await withLibrary(ctx.dataDir, (client) => client.backup('manual'), ctx.stderr);
  if (p.values.json) printJson(ctx.stdout, { ...(backupJson(info) as object), verified: true });
  else
    ctx.stdout.write(
      `Backup written and verified (integrity check ok): ${info.file} (${(info.size / 1024).toFixed(1)} KB)\n`,
    );
  return 0;
}
