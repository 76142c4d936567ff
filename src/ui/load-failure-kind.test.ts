import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { loadFailureKind } from './load-failure-kind';

describe('loadFailureKind', () => {
  it.each([
    [403, 'denied'],
    [404, 'notFound'],
    [undefined, 'retryable'],
    [408, 'retryable'],
    [429, 'retryable'],
    [500, 'retryable'],
    [503, 'retryable'],
    [400, 'refused'],
    [401, 'refused'],
    [409, 'refused'],
    [200, 'refused'],
  ])('an API failure with status %s is %s', (status, kind) => {
    expect(loadFailureKind(new ApiError('x', status === undefined ? {} : { status }))).toBe(kind);
  });

  it('anything but an API failure is a fault of the console', () => {
    expect(loadFailureKind(new TypeError('undefined is not a function'))).toBe('unexpected');
    expect(loadFailureKind('a string')).toBe('unexpected');
  });
});
