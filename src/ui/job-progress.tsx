import { useEffect, useId, useState, type ReactNode } from 'react';
import { messageOf } from '../api/error-data';
import type { ApiClient } from '../api/client';
import { FormProblem } from './form-problem';

const POLL_MS = 1000;

/**
 * Polls a job (a database copy, a mailing) every second while it runs, and every three seconds after a failed call;
 * the server keeps the job, so a reload finds it again. `onFinished` runs once it has stopped (a history to refresh).
 * `get` and `isRunning` are module functions: a new one would restart the polling.
 */
export function usePolledJob<Job>(
  get: (api: ApiClient, id: number, options: { signal: AbortSignal }) => Promise<Job>,
  isRunning: (job: Job) => boolean,
  api: ApiClient,
  id: number,
  onFinished: () => void,
) {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      get(api, id, { signal: controller.signal }).then(
        (next) => {
          setJob(next);
          setError(null);
          if (isRunning(next)) timer = setTimeout(poll, POLL_MS);
        },
        (failure) => {
          if (controller.signal.aborted) return;
          setError(messageOf(failure));
          timer = setTimeout(poll, POLL_MS * 3);
        },
      );
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [get, isRunning, api, id]);
  const running = job === null || isRunning(job);
  useEffect(() => {
    if (!running) onFinished();
  }, [running]);
  return { job, error, running };
}

/**
 * A job's panel: its title, why the last poll failed (kept while it retries), "Loading…" until the first answer,
 * then the job's own progress. Busy while the job runs.
 */
export function JobProgress<Job>(props: {
  title: ReactNode;
  /** What failed to load, in words: "the copy". */
  noun: string;
  progress: { job: Job | null; error: string | null; running: boolean };
  className?: string;
  children: (job: Job) => ReactNode;
}) {
  const { job, error, running } = props.progress;
  const titleId = useId();
  return (
    <section className={props.className ?? 'panel'} aria-labelledby={titleId} aria-busy={(job !== null && running) || undefined}>
      <h2 id={titleId}>{props.title}</h2>
      <FormProblem message={error && `Could not load ${props.noun}: ${error}`} />
      {job === null ? !error && <p className="muted">Loading…</p> : props.children(job)}
    </section>
  );
}
