import * as Comlink from 'comlink';
import { createEnforcementApi } from './enforcement-api';

// Only the exposure lives here; the logic is the plain module enforcement-api.ts (tested directly).
Comlink.expose(createEnforcementApi());
