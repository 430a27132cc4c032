// `citewise serve`: Citewise in browser mode: the app served on 127.0.0.1 with a per-launch token.
import { existsSync } from 'node:fs';
import { version } from '../../../package.json';
import { CoreError } from '../../core/errors';
import { stderrLogger } from '../../core/log';
import { defineCommand, requireCoreOptions, UsageError, type CommandContext, type ParsedCommand } from '../command';

export const command = defineCommand({
  name: 'serve',
  help: [
    {
      usage: 'serve',
      text: `Run Citewise in browser mode: serve the app on 127.0.0.1 and print its URL
(the URL carries a per-launch token; nobody else on this machine can use it)`,
    },
  ],
  options: {
    port: { type: 'string', arg: 'N', help: 'Port to listen on (default: any free port)' },
    open: { type: 'boolean', help: 'Open the URL in the default browser' },
  },
  run: serve,
});

async function serve({ values, positionals }: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got "${positionals[0]}")`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535 (got "${values.port}")`);

  const rendererDir = ctx.rendererDir;
  if (rendererDir === undefined || !existsSync(`${rendererDir}/index.html`)) {
    throw new CoreError('INTERNAL', 'The app is not built yet: run `npm run build` (or `npm start`) first.');
  }
  const coreOptions = requireCoreOptions(ctx)(values as { 'data-dir'?: string; 'service-url'?: string }, 'browser');
  const dataDir = coreOptions.dataDir;
  const [{ createCore }, { startHost }, { openInBrowser }] = await Promise.all([
    import('../../core'),
    import('../../host/server'),
    import('../open-browser'),
  ]);
  const core = await createCore(coreOptions);
  let host;
  try {
    host = await startHost({ core, rendererDir, port, logger: stderrLogger });
  } catch (err) {
    await core.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new CoreError('CONFLICT', `Port ${port} is already in use; choose another with --port or leave it out.`);
    throw err;
  }
  ctx.stdout.write(`Citewise ${version} is running in browser mode at ${host.url}\n`);
  ctx.stdout.write(`Library: ${dataDir}. Press Ctrl+C to stop.\n`);
  if (values.open) openInBrowser(host.url);
  // Settings → Editors (on by default): the editor API beside the app. CITEWISE_EDITOR_API=0 keeps
  // it off for this run (the end-to-end tests, which must not take port 23119 on a shared machine).
  const editors =
    process.env.CITEWISE_EDITOR_API === '0'
      ? null
      : await (
          await import('../../api/controller')
        ).followEditorSettings(core, {
          // The app shows the waiting request (a banner with its own picker, core/editors); the
          // picker page opens in the browser too, for when the app's tab is not open.
          openPicker: (session) => {
            // The app's banner picks items; Document Preferences are answered in their page only.
            const shown =
              session.kind === 'cite'
                ? core.pendingPicks.add({ id: session.id, answer: session.answer, cancel: session.cancel })
                : undefined;
            if (!openInBrowser(session.url)) ctx.stdout.write(`Pick at: ${session.url}\n`);
            return shown;
          },
          copy: async (text) => (await import('./api')).copyToClipboard(text),
          logger: stderrLogger,
          onStatus: (s) => {
            if (s.state === 'running') ctx.stdout.write(`Editor API (Better BibTeX-compatible) on ${s.origin}\n`);
          },
        });

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await editors?.close();
  await host.close();
  await core.close();
  return 0;
}
