// pdf.js's viewer components, set up once per open file: continuous scroll with the text layer (what
// screen readers read and selection uses), links inside the document, and find with highlighting.
import 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import {
  EventBus,
  FindState,
  LinkTarget,
  PDFFindController,
  PDFLinkService,
  PDFViewer,
} from 'pdfjs-dist/web/pdf_viewer.mjs';

export interface ViewerEvents {
  onPage(page: number): void;
  /** The scale, and the preset it came from ('page-width', 'page-fit', 'auto') if any. */
  onScale(scale: number, preset: string | null): void;
  onFind(state: 'found' | 'not-found' | 'pending', matches: { current: number; total: number } | null): void;
  onPagesInit(): void;
}

export interface Viewer {
  setDocument(doc: PDFDocumentProxy): void;
  goTo(page: number): void;
  goToDestination(dest: string | unknown[] | null): void;
  /** 'page-width', 'page-fit', 'auto' or a scale such as '1.25'. */
  zoom(value: string): void;
  zoomBy(factor: number): void;
  /** `again`: the next (or previous) match of the same query; otherwise a new search. */
  find(query: string, previous: boolean, fresh: boolean): void;
  clearFind(): void;
  close(): void;
}

const PRESETS = new Set(['page-width', 'page-fit', 'auto']);
const MIN_SCALE = 0.25;
const MAX_SCALE = 5;

export function createViewer(container: HTMLDivElement, events: ViewerEvents): Viewer {
  const eventBus = new EventBus();
  const linkService = new PDFLinkService({
    eventBus,
    // A web link in a paper opens outside the app (the shell denies navigation of its own window).
    externalLinkTarget: LinkTarget.BLANK,
    externalLinkRel: 'noopener noreferrer nofollow',
  });
  const findController = new PDFFindController({ eventBus, linkService });
  const viewer = new PDFViewer({
    container,
    eventBus,
    linkService,
    findController,
    textLayerMode: 1,
    removePageBorders: false,
  });
  linkService.setViewer(viewer);

  eventBus.on('pagesinit', () => events.onPagesInit());
  eventBus.on('pagechanging', (e: { pageNumber: number }) => events.onPage(e.pageNumber));
  eventBus.on('scalechanging', (e: { scale: number; presetValue?: string }) =>
    events.onScale(e.scale, e.presetValue && PRESETS.has(e.presetValue) ? e.presetValue : null),
  );
  const findState = (state: number): 'found' | 'not-found' | 'pending' =>
    state === FindState.NOT_FOUND ? 'not-found' : state === FindState.PENDING ? 'pending' : 'found';
  eventBus.on('updatefindcontrolstate', (e: { state: number; matchesCount?: { current: number; total: number } }) =>
    events.onFind(findState(e.state), e.matchesCount ?? null),
  );
  eventBus.on('updatefindmatchescount', (e: { matchesCount: { current: number; total: number } }) =>
    events.onFind('found', e.matchesCount),
  );

  let lastQuery = '';
  const dispatchFind = (query: string, type: '' | 'again', previous: boolean) =>
    eventBus.dispatch('find', {
      source: null,
      type,
      query,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious: previous,
      matchDiacritics: false,
    });

  return {
    setDocument(doc) {
      viewer.setDocument(doc);
      linkService.setDocument(doc, null);
    },
    goTo(page) {
      viewer.currentPageNumber = page;
    },
    goToDestination(dest) {
      if (dest !== null) void linkService.goToDestination(dest as string | unknown[]);
    },
    zoom(value) {
      viewer.currentScaleValue = value;
    },
    zoomBy(factor) {
      viewer.currentScale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, viewer.currentScale * factor));
    },
    find(query, previous, fresh) {
      const type = fresh || query !== lastQuery ? '' : 'again';
      lastQuery = query;
      dispatchFind(query, type, previous);
    },
    clearFind() {
      lastQuery = '';
      eventBus.dispatch('findbarclose', { source: null });
    },
    close() {
      viewer.cleanup();
      viewer.setDocument(null as unknown as PDFDocumentProxy);
      linkService.setDocument(null, null);
    },
  };
}
