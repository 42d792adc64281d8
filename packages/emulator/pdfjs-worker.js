// PDF.js runs its worker code in the calling thread when it finds it loaded (globalThis.pdfjsWorker).
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
