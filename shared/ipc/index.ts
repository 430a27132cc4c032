// The one IPC contract between the renderer and the core. Every transport (Electron IPC, the host's
// WebSocket, in-process for tests) carries exactly these channels and events.
import type { z } from 'zod';
import { appFeature } from './app';
import { assistantFeature } from './assistant';
import { attachmentsFeature } from './attachments';
import { autoExportFeature } from './auto-export';
import { collectionsFeature } from './collections';
import { assertDisjoint, type OutputOf, type PayloadOf, type Result } from './define';
import { enrichmentFeature } from './enrichment';
import { evidenceFeature } from './evidence';
import { graphFeature } from './graph';
import { jobsFeature } from './jobs';
import { libraryFeature } from './library';
import { manuscriptFeature } from './manuscript';
import { organiseFeature } from './organise';
import { pdfsFeature } from './pdfs';
import { pdfWatchFeature } from './pdf-watch';
import { stylesFeature } from './styles';
import { restoreFeature } from './restore';
import { serviceFeature } from './service';
import { settingsFeature } from './settings';
import { zoteroFeature } from './zotero';
import { syncFeature } from './sync';
import { editorsFeature } from './editors';
import { readerFeature } from './reader';

export const features = [
  appFeature,
  settingsFeature,
  jobsFeature,
  serviceFeature,
  libraryFeature,
  enrichmentFeature,
  autoExportFeature,
  restoreFeature,
  attachmentsFeature,
  evidenceFeature,
  graphFeature,
  assistantFeature,
  collectionsFeature,
  manuscriptFeature,
  pdfsFeature,
  pdfWatchFeature,
  zoteroFeature,
  organiseFeature,
  syncFeature,
  editorsFeature,
  stylesFeature,
  readerFeature,
] as const;
assertDisjoint(features);

export const requests = {
  ...appFeature.requests,
  ...settingsFeature.requests,
  ...jobsFeature.requests,
  ...serviceFeature.requests,
  ...libraryFeature.requests,
  ...enrichmentFeature.requests,
  ...autoExportFeature.requests,
  ...restoreFeature.requests,
  ...attachmentsFeature.requests,
  ...evidenceFeature.requests,
  ...graphFeature.requests,
  ...assistantFeature.requests,
  ...collectionsFeature.requests,
  ...manuscriptFeature.requests,
  ...pdfsFeature.requests,
  ...pdfWatchFeature.requests,
  ...zoteroFeature.requests,
  ...organiseFeature.requests,
  ...syncFeature.requests,
  ...editorsFeature.requests,
  ...stylesFeature.requests,
  ...readerFeature.requests,
};

export const events = {
  ...appFeature.events,
  ...settingsFeature.events,
  ...jobsFeature.events,
  ...serviceFeature.events,
  ...libraryFeature.events,
  ...enrichmentFeature.events,
  ...autoExportFeature.events,
  ...restoreFeature.events,
  ...attachmentsFeature.events,
  ...evidenceFeature.events,
  ...graphFeature.events,
  ...assistantFeature.events,
  ...collectionsFeature.events,
  ...manuscriptFeature.events,
  ...pdfsFeature.events,
  ...pdfWatchFeature.events,
  ...zoteroFeature.events,
  ...organiseFeature.events,
  ...syncFeature.events,
  ...editorsFeature.events,
  ...stylesFeature.events,
  ...readerFeature.events,
};

export type Requests = typeof requests;
export type Events = typeof events;
export type Channel = keyof Requests & string;
export type EventName = keyof Events & string;
/** What the renderer sends (before defaults are applied). */
export type InputOf<C extends Channel> = z.input<Requests[C]['input']>;
/** What a handler receives (after validation and defaults). */
export type ParsedInputOf<C extends Channel> = z.output<Requests[C]['input']>;
export type ResultOf<C extends Channel> = OutputOf<Requests[C]>;
export type EventPayload<E extends EventName> = PayloadOf<Events[E]>;

export const CHANNELS = Object.keys(requests) as Channel[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

/** The API every transport offers the renderer: `window.citewise` in Electron, the WebSocket client in a browser. */
export interface CitewiseApi {
  invoke<C extends Channel>(channel: C, input: InputOf<C>): Promise<Result<ResultOf<C>>>;
  /** Subscribes a listener; returns the function that unsubscribes it. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export * from './define';
export * from './bounds';
export * from './app';
export * from './settings';
export * from './jobs';
export * from './service';
export * from './library';
export * from './enrichment';
export * from './auto-export';
export * from './restore';
export * from './attachments';
export * from './evidence';
export * from './graph';
export * from './assistant';
export * from './collections';
export * from './manuscript';
export * from './pdfs';
export * from './pdf-watch';
export * from './styles';
export * from './organise';
export * from './sync';
export * from './editors';
export * from './wire';
export * from './zotero';
export * from './reader';
