import { z } from 'zod';
import { event, feature, request } from './define';

export type HostMode = 'electron' | 'browser' | 'cli' | 'test';

export interface AppInfo {
  name: string;
  version: string;
  mode: HostMode;
  platform: string;
  dataDir: string;
}

export type Connectivity = 'online' | 'offline' | 'unknown';

export interface ConnectivityStatus {
  state: Connectivity;
  /** ISO time of the last change. */
  since: string;
  /** Why the state is what it is, in words a researcher understands; empty when online. */
  reason: string;
}

/** Diagnostics: `diag.echo` answers with what it was sent; used to check and measure a transport. */
export const appFeature = feature({
  requests: {
    'app.info': request(z.object({}).strict()).returns<AppInfo>(),
    'app.connectivity': request(z.object({}).strict()).returns<ConnectivityStatus>(),
    'diag.echo': request(z.object({ payload: z.unknown() }).strict()).returns<{ payload: unknown }>(),
  },
  events: {
    'app.connectivityChanged': event<ConnectivityStatus>(),
  },
});
