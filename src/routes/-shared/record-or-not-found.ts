import { notFound } from '@tanstack/react-router';
import { ApiError } from '../../api/client';

/**
 * A record page's loader: the record (and what it needs), or the route's not-found screen when the server answers
 * 404 — for a record that is not there, or, where its existence is itself private, not at one of your locations.
 */
export async function recordOrNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}
