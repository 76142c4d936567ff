import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What a production build ships: gzip sizes, the chunks a page needs (from Vite's `.vite/manifest.json`), and which
 * packages the bytes of a chunk come from (from its source map). Sizes are in bytes; KB in reports are 1000 bytes.
 */

/** Gzip at zlib's default level (6), as web servers commonly compress. */
export function gzipBytes(content: Buffer | string): number {
  return gzipSync(content).length;
}

export const KB = 1000;

/** One entry of Vite's build manifest (`build.manifest: true`). */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export async function readManifest(outDir: string): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/**
 * The manifest keys of `roots` and everything they import statically, in depth-first import order (each once).
 * Dynamic imports are not followed: a page needs them only when its code asks.
 */
export function staticClosure(manifest: Manifest, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return [...seen];
}

export interface ChunkSize {
  /** Manifest key, or the file name for files the manifest does not list (workers). */
  key: string;
  file: string;
  bytes: number;
  gzBytes: number;
}

export async function chunkSize(outDir: string, key: string, file: string): Promise<ChunkSize> {
  const content = await readFile(path.join(outDir, file));
  return { key, file, bytes: content.length, gzBytes: gzipBytes(content) };
}

// ---------------------------------------------------------------------------------------------------------------
// Source-map attribution

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

/** Per generated line, its segments as [generated column, source index or -1], from a source map's `mappings`. */
function decodeMappings(mappings: string): [number, number][][] {
  const lines: [number, number][][] = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments: [number, number][] = [];
    let column = 0;
    if (line.length > 0) {
      for (const segment of line.split(',')) {
        if (segment.length === 0) continue;
        const fields: number[] = [];
        let value = 0;
        let shift = 0;
        for (let i = 0; i < segment.length; i++) {
          const digit = BASE64_VALUE[segment.charCodeAt(i)] ?? -1;
          if (digit < 0) throw new Error(`bad source map character ${segment[i]}`);
          value += (digit & 31) << shift;
          if (digit & 32) {
            shift += 5;
          } else {
            fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += fields[0] ?? 0;
        if (fields.length >= 4) {
          source += fields[1]!;
          segments.push([column, source]);
        } else {
          segments.push([column, -1]);
        }
      }
    }
    lines.push(segments.sort((a, b) => a[0] - b[0]));
  }
  return lines;
}

/** The npm package a source path is in (`react-dom`, `@firebase/auth`), or null; `/` separators. */
export function npmPackageOf(normalized: string): string | null {
  const at = normalized.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const parts = normalized.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Where a source path belongs: its npm package (`react-dom`, `@firebase/auth`), else `src/<dir>`, else as is. */
export function packageOf(source: string): string {
  const normalized = source.replace(/\\/g, '/');
  const npmPackage = npmPackageOf(normalized);
  if (npmPackage !== null) return npmPackage;
  const src = normalized.lastIndexOf('src/');
  if (src >= 0) {
    const parts = normalized.slice(src).split('/');
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : 'src';
  }
  return normalized.replace(/^(\.\.\/)+/, '') || '(unknown)';
}

/**
 * Bytes of a built JS file by the package they were compiled from (its `.map` beside it): each mapped segment
 * counts until the next one; code no segment maps (the bundler's glue) counts as "(unmapped)". Columns are UTF-16
 * code units, close to bytes for minified JS. Returns null when the file has no source map.
 */
export async function bytesByPackage(file: string): Promise<Map<string, number> | null> {
  const mapFile = `${file}.map`;
  if (!existsSync(mapFile)) return null;
  const [code, mapText] = await Promise.all([readFile(file, 'utf8'), readFile(mapFile, 'utf8')]);
  const map = JSON.parse(mapText) as { sources: string[]; sourceRoot?: string; mappings: string };
  const packages = map.sources.map((source) => packageOf(path.posix.join(map.sourceRoot ?? '', source)));
  const lines = decodeMappings(map.mappings);
  const totals = new Map<string, number>();
  const add = (name: string, bytes: number) => {
    if (bytes > 0) totals.set(name, (totals.get(name) ?? 0) + bytes);
  };
  code.split('\n').forEach((text, lineIndex) => {
    const segments = lines[lineIndex] ?? [];
    add('(unmapped)', Math.min(text.length, segments[0]?.[0] ?? text.length));
    segments.forEach(([column, source], i) => {
      const end = Math.min(text.length, segments[i + 1]?.[0] ?? text.length);
      add(source < 0 ? '(unmapped)' : (packages[source] ?? '(unknown)'), end - Math.min(column, end));
    });
    if (lineIndex > 0) add('(unmapped)', 1); // the newline
  });
  return totals;
}

/**
 * Maps a position in a built JS file (0-based line and column, as DevTools' CPU profiles give them) to the source it
 * came from, by the file's source map; null when there is none or nothing maps there.
 */
export async function sourceLocator(file: string): Promise<((line: number, column: number) => string | null) | null> {
  const mapFile = `${file}.map`;
  if (!existsSync(mapFile)) return null;
  const map = JSON.parse(await readFile(mapFile, 'utf8')) as { sources: string[]; sourceRoot?: string; mappings: string };
  const sources = map.sources.map((source) => path.posix.join(map.sourceRoot ?? '', source));
  const lines = decodeMappings(map.mappings);
  return (line, column) => {
    const segments = lines[line];
    if (segments === undefined) return null;
    let low = 0;
    let high = segments.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (segments[middle]![0] <= column) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    const source = found < 0 ? -1 : segments[found]![1];
    return source < 0 ? null : (sources[source] ?? null);
  };
}

export interface PackageShare {
  name: string;
  /** Minified bytes attributed to the package. */
  bytes: number;
  /** Its share of each chunk's gzip size (bytes share × chunk gz), summed over the chunks: an estimate. */
  gzBytesEstimate: number;
}

/** Packages of a set of chunks, largest first: minified bytes from the source maps, gzip shared out by bytes. */
export async function packageShares(outDir: string, chunks: readonly ChunkSize[]): Promise<PackageShare[]> {
  const shares = new Map<string, PackageShare>();
  for (const chunk of chunks) {
    const byPackage = await bytesByPackage(path.join(outDir, chunk.file));
    const entries: [string, number][] = byPackage === null ? [['(no source map)', chunk.bytes]] : [...byPackage];
    const mapped = entries.reduce((sum, [, bytes]) => sum + bytes, 0);
    for (const [name, bytes] of entries) {
      const share = shares.get(name) ?? { name, bytes: 0, gzBytesEstimate: 0 };
      share.bytes += bytes;
      share.gzBytesEstimate += mapped > 0 ? (bytes / mapped) * chunk.gzBytes : 0;
      shares.set(name, share);
    }
  }
  return [...shares.values()].sort((a, b) => b.gzBytesEstimate - a.gzBytesEstimate);
}
