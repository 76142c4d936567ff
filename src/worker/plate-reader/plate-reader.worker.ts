import * as Comlink from 'comlink';
import { createPlateReader } from './plate-reader-engine';

// Only the exposure lives here; the logic is plate-reader-engine.ts and plate-line.ts (tested directly).
Comlink.expose(createPlateReader(self.location.origin + import.meta.env.BASE_URL));
