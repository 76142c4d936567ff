import * as z from 'zod/mini';
import { ApiError } from '../../api/client';
import type { Paged } from '../../contract/lists';
import type { ListResult } from '../../ui/list-results';

/**
 * What the admin lists share on the route side (docs/sections.md "Lists"): the URL's search, checked with the
 * contract's query schema, and the loader's page or the reason it could not be had.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Standard Schema (what TanStack Router's `validateSearch` takes) that never fails. */
export interface SearchValidator<Input, Output> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: Output };
    /** Types only: the router reads a route's search types from here. */
    readonly types?: { readonly input: Input; readonly output: Output };
  };
}

/**
 * A search of one optional positive id (`?mailing=12`, `?copy=3`): the record whose progress a screen shows, so that
 * a reload shows it again. Anything else in that parameter is dropped. Shared so that each route adds a call, not a
 * parser, to the entry chunk.
 */
export function positiveIdSearch<const K extends string>(key: K): (search: Record<string, unknown>) => { [P in K]?: number } {
  return (search) => {
    const id = Number(search[key]);
    return Number.isSafeInteger(id) && id > 0 ? ({ [key]: id } as { [P in K]?: number }) : {};
  };
}

/**
 * A route's `validateSearch` from a contract query schema (a Standard Schema, typed with the schema's input and
 * output). A hand-edited or outdated link with a bad value (`?page=abc`, `?sort=colour`) loses that parameter, not the
 * page: the parameters the schema refuses are dropped and the rest kept.
 */
export function forgivingSearch<S extends z.core.$ZodType<object, object>>(
  schema: S,
): SearchValidator<z.input<S>, z.output<S>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'lightning-pay-admin',
      validate(value) {
        const search: Record<string, unknown> = isRecord(value) ? { ...value } : {};
        const refused = new Set<string>();
        for (;;) {
          const result = z.safeParse(schema, search);
          // The router lays this over the raw search: a refused parameter must be named to be dropped.
          if (result.success) return { value: { ...result.data, ...Object.fromEntries([...refused].map((key) => [key, undefined])) } };
          const keys = result.error.issues.map((issue) => issue.path[0]).filter((key) => typeof key === 'string');
          const known = keys.filter((key) => key in search);
          if (known.length === 0) return { value: z.parse(schema, {}) };
          for (const key of known) {
            delete search[key];
            refused.add(key);
          }
        }
      },
    },
  };
}

// The list screen's (src/ui/list-results.tsx): what a loader gives it.
export type { ListResult } from '../../ui/list-results';

/** Runs a list loader; a refusal or failure of the API becomes the screen's to show (list-page.ts keeps a 403 from a toast too). */
export async function loadListPage<Row>(load: () => Promise<Paged<Row>>): Promise<ListResult<Row>> {
  try {
    return { ok: true, page: await load() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, message: error.message, ...(error.status === undefined ? {} : { status: error.status }) };
  }
}
