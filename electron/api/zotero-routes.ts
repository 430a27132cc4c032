// Zotero's two protocols on the editor API's port: the Connector's endpoints (connector/) and the
// local Web API (zotero-local/), and the word-processor integration (integration/), each in its own
// folder; server.ts sends them their paths.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConnectorEndpoints, type ConnectorContext } from './connector';
import { LocalApi } from './zotero-local';
import type { IntegrationEndpoints } from './integration';

export function zoteroRoutes(ctx: ConnectorContext, integration?: IntegrationEndpoints) {
  const connector = new ConnectorEndpoints(ctx);
  const local = new LocalApi(ctx);
  return {
    serves: (path: string): boolean => path.startsWith('/connector/') || path === '/api' || path.startsWith('/api/'),
    handle: (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> =>
      integration?.serves(url.pathname)
        ? integration.handle(req, res, url)
        : url.pathname.startsWith('/connector/')
          ? connector.handle(req, res, url)
          : local.handle(req, res, url),
  };
}
