// `citewise restore [FILE]`: the library replaced with a backup, proven good first; the current library
// is backed up before, so that a restore can be undone.
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { CoreError } from '../../core/errors';
import { inspectBackup, listBackups, replaceLibraryFile, type BackupInfo } from '../../core/library/backup';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { libraryFile, plural, printJson, withLibrary } from '../library-session';
import { backupJson } from './backup';

export const command = defineCommand({
  name: 'restore',
  help: [
    {
      usage: 'restore [FILE]',
      text: `Replace the library with a backup (default: the newest one that is not a pre-restore
copy); the current library is backed up first, so a restore can be undone`,
    },
  ],
  options: { json: { type: 'boolean', help: 'Print what was restored as JSON' } },
  run: restoreCommand,
});

async function restoreCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError('restore takes at most one backup file');
  const file = libraryFile(ctx.dataDir);
  const backupDir = join(ctx.dataDir, 'backups');
  const named = p.positionals[0];
  let source: string;
  if (named !== undefined) {
    const candidates = isAbsolute(named) ? [named] : [resolve(named), join(backupDir, named)];
    const found = candidates.find((c) => existsSync(c));
    if (!found)
      throw new CoreError(
        'NOT_FOUND',
        `no backup "${named}" (looked in ${candidates.join(' and ')}); citewise restore without a name takes the newest`,
      );
    source = found;
  } else {
    const latest = listBackups(backupDir).find((b) => b.reason !== 'pre-restore');
    if (!latest) throw new CoreError('NOT_FOUND', `there are no backups in ${backupDir}; nothing was changed`);
    source = latest.file;
  }
  // Refuse anything not proven good before the current library is touched.
  const inspection = inspectBackup(source);
  if (inspection.problem !== null)
    throw new CoreError('INVALID_INPUT', `${source} is not a good backup (${inspection.problem}); nothing was changed`);
  const restoredItems = inspection.items;

  // The current library is backed up first (when there is one), so the restore can be undone.
  let saved: BackupInfo | null = null;
  if (existsSync(file)) {
    saved = await withLibrary(ctx.dataDir, (client) => client.backup('pre-restore'), ctx.stderr);
    // Closing the last connection removes the WAL; one still there means another process has the library open.
    if (existsSync(`${file}-wal`))
      throw new CoreError(
        'CONFLICT',
        `the library seems to be open in another Citewise (the app, citewise serve); close it and try again. Nothing was changed; a copy of the current library is at ${saved.file}`,
      );
  }
  try {
    replaceLibraryFile(source, file);
  } catch (err) {
    throw new CoreError(
      'INTERNAL',
      `could not restore: ${(err as Error).message}${saved ? `; the current library is saved at ${saved.file}` : ''}`,
    );
  }
  // Open it once through the library worker: it must pass the same checks (and migrate) as at start-up.
  try {
    await withLibrary(ctx.dataDir, async () => undefined);
  } catch (err) {
    if (saved) replaceLibraryFile(saved.file, file);
    throw new CoreError(
      'INVALID_INPUT',
      `${source} could not be opened as a library (${(err as Error).message}); ${saved ? 'the previous library was put back' : 'remove it and start again'}`,
    );
  }
  if (p.values.json) {
    printJson(ctx.stdout, {
      restoredFrom: source,
      items: restoredItems,
      previousLibrary: saved ? backupJson(saved) : null,
    });
  } else {
    ctx.stdout.write(`Restored the library from ${source} (${plural(restoredItems, 'item')}).\n`);
    if (saved)
      ctx.stdout.write(
        `The library as it was before is kept at ${saved.file}; "citewise restore ${basename(saved.file)}" undoes this.\n`,
      );
  }
  return 0;
}
