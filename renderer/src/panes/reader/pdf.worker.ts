// pdf.js's parser in a Web Worker served from the app's own origin (the CSP's worker-src 'self').
import 'pdfjs-dist/build/pdf.worker.min.mjs';
