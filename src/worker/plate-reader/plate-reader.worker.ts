import * as Comlink from 'comlink';
import { createPlateReader } from './plate-reader-engine';

// Only the exposure lives here; the logic is plate-reader-engine.ts and plate-line.ts (tested directly).
// The OCR files are under the app's base on its origin. Resolved against the origin's root, not this script's URL: a
// relative base ('./', as the bench pages are built) would otherwise point into the folder of the worker's chunk.
Comlink.expose(createPlateReader(new URL(import.meta.env.BASE_URL, `${self.location.origin}/`).href));
