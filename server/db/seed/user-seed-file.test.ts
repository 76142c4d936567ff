import { describe, expect, it } from 'vitest';
import { parseSeedUsersFile, SeedFileError } from './user-seed-file';

function problemsOf(text: string): readonly string[] {
  try {
    parseSeedUsersFile(text, 'team.json');
  } catch (error) {
    if (error instanceof SeedFileError) return error.problems;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('seed-users file', () => {
  it('parses users, lower-casing e-mails and filling empty level lists', () => {
    const users = parseSeedUsersFile(
      JSON.stringify([
        { email: 'Dana@Example.com', password: 'secret1', displayName: 'Dana', permissions: { e: { v: [1, 2] } } },
        { email: 'root@example.com', password: 'secret1', permissions: { su: true } },
      ]),
      'team.json',
    );
    expect(users).toEqual([
      {
        email: 'dana@example.com',
        password: 'secret1',
        displayName: 'Dana',
        permissions: { su: false, e: { v: [1, 2], a: [], e: [], d: [] } },
      },
      { email: 'root@example.com', password: 'secret1', permissions: { su: true } },
    ]);
  });

  it('names the file and says when it is not JSON', () => {
    expect(() => parseSeedUsersFile('[{', 'team.json')).toThrow(
      /team\.json is not a valid seed-users file[\s\S]*not valid JSON/,
    );
  });

  it('requires an array', () => {
    expect(problemsOf('{"email": "a@example.com"}')).toEqual([expect.stringMatching(/expected array/)]);
  });

  it('qualifies every problem with its path', () => {
    const problems = problemsOf(
      JSON.stringify([
        { email: 'ok@example.com', password: 'secret1', permissions: {} },
        { email: 'not-an-email', password: '123', permissions: { e: { v: ['1'] }, zz: { v: [] } } },
        { password: 'secret1', permissions: { pc: { x: [1] } } },
      ]),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[1\]\.email: /),
        expect.stringMatching(/^\[1\]\.password: must be at least 6 characters/),
        expect.stringMatching(/^\[1\]\.permissions\.e\.v\[0\]: /),
        expect.stringMatching(/^\[1\]\.permissions: .*zz/),
        expect.stringMatching(/^\[2\]\.email is required/),
        expect.stringMatching(/^\[2\]\.permissions\.pc: .*x/),
      ]),
    );
  });

  it('refuses the same e-mail twice, in any case', () => {
    const user = { password: 'secret1', permissions: {} };
    const problems = problemsOf(
      JSON.stringify([
        { email: 'a@example.com', ...user },
        { email: 'A@example.com', ...user },
      ]),
    );
    expect(problems).toEqual(['[1].email: duplicates the e-mail of [0]']);
  });

  it('refuses location ids that are not positive integers', () => {
    const problems = problemsOf(
      JSON.stringify([{ email: 'a@example.com', password: 'secret1', permissions: { lo: { v: [0, 1.5] } } }]),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^\[0\]\.permissions\.lo\.v\[0\]: /);
  });
});
