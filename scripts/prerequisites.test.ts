import { describe, expect, it, vi } from 'vitest';
import {
  ensurePrerequisites,
  planPrerequisites,
  type Machine,
  type MachineFacts,
  type Prerequisite,
} from './prerequisites';

const bare = { hasApt: true, isRoot: true } satisfies Partial<MachineFacts>;

describe('planPrerequisites', () => {
  it('does nothing when nothing is missing, whoever runs it', () => {
    for (const [hasApt, isRoot] of [
      [true, true],
      [true, false],
      [false, false],
    ] as const) {
      expect(planPrerequisites({ missing: [], hasApt, isRoot })).toEqual({ action: 'none' });
    }
  });

  it("as root with apt-get, installs Debian's packages for what is missing, and only those", () => {
    expect(planPrerequisites({ ...bare, missing: ['chromium', 'postgresql'] })).toEqual({
      action: 'install',
      packages: ['chromium', 'chromium-headless-shell', 'fonts-liberation', 'postgresql'],
    });
    expect(planPrerequisites({ ...bare, missing: ['postgresql'] })).toEqual({
      action: 'install',
      packages: ['postgresql'],
    });
    expect(planPrerequisites({ ...bare, missing: ['chromium'] })).toEqual({
      action: 'install',
      packages: ['chromium', 'chromium-headless-shell', 'fonts-liberation'],
    });
  });

  it('with apt-get but not root, stops naming the one sudo command', () => {
    const plan = planPrerequisites({ missing: ['chromium', 'postgresql'], hasApt: true, isRoot: false });
    expect(plan.action).toBe('stop');
    const message = plan.action === 'stop' ? plan.message : '';
    expect(message).toContain('Chromium (for the end-to-end tests) and PostgreSQL server binaries');
    expect(message.trim().split('\n').at(-1)?.trim()).toBe('sudo apt-get install chromium chromium-headless-shell fonts-liberation postgresql');
  });

  it('names only what is missing', () => {
    const plan = planPrerequisites({ missing: ['postgresql'], hasApt: true, isRoot: false });
    const message = plan.action === 'stop' ? plan.message : '';
    expect(message).not.toContain('Chromium');
    expect(message).toContain('\n  sudo apt-get install postgresql');
  });

  it('without apt-get, stops and says what to install or which variable to set instead', () => {
    for (const isRoot of [true, false]) {
      const plan = planPrerequisites({ missing: ['chromium', 'postgresql'], hasApt: false, isRoot });
      expect(plan.action).toBe('stop');
      const message = plan.action === 'stop' ? plan.message : '';
      expect(message).toContain('no apt-get');
      expect(message).toContain('CHROMIUM_PATH');
      expect(message).toContain('DATABASE_URL');
      expect(message).not.toContain('sudo');
    }
    const postgresOnly = planPrerequisites({ missing: ['postgresql'], hasApt: false, isRoot: false });
    expect(postgresOnly.action === 'stop' && postgresOnly.message).not.toContain('CHROMIUM_PATH');
  });

  it('never installs over a CHROMIUM_PATH that points nowhere: it says so', () => {
    const plan = planPrerequisites({ ...bare, missing: ['chromium'], chromiumPathFromEnv: '/opt/chrome/chrome' });
    expect(plan).toEqual({ action: 'stop', message: expect.stringContaining('CHROMIUM_PATH is /opt/chrome/chrome') });
    // A CHROMIUM_PATH that exists changes nothing for PostgreSQL.
    expect(planPrerequisites({ ...bare, missing: ['postgresql'], chromiumPathFromEnv: '/opt/chrome/chrome' })).toEqual({
      action: 'install',
      packages: ['postgresql'],
    });
  });
});

describe('ensurePrerequisites', () => {
  /** A machine missing `missing` until apt-get has run (when `installWorks`), as root with apt-get unless told. */
  function fakeMachine({
    missing,
    installWorks = true,
    installFixes = true,
    facts = {},
  }: {
    missing: Prerequisite[];
    installWorks?: boolean;
    installFixes?: boolean;
    facts?: Partial<MachineFacts>;
  }) {
    let installed = false;
    const machine = {
      facts: vi.fn((needed: readonly Prerequisite[]) => ({
        ...bare,
        ...facts,
        missing: installed && installFixes ? [] : needed.filter((prerequisite) => missing.includes(prerequisite)),
      })),
      aptInstall: vi.fn((_packages: readonly string[]) => {
        installed = installWorks;
        return installWorks;
      }),
      log: vi.fn(),
    } satisfies Machine;
    return machine;
  }

  it('goes on without installing when everything needed is there', () => {
    const machine = fakeMachine({ missing: ['chromium'] });
    expect(ensurePrerequisites(['postgresql'], machine)).toEqual({ ok: true });
    expect(machine.aptInstall).not.toHaveBeenCalled();
  });

  it('installs what is missing once, checks again, and goes on', () => {
    const machine = fakeMachine({ missing: ['chromium', 'postgresql'] });
    expect(ensurePrerequisites(['postgresql', 'chromium'], machine)).toEqual({ ok: true });
    expect(machine.aptInstall).toHaveBeenCalledExactlyOnceWith(['postgresql', 'chromium', 'chromium-headless-shell', 'fonts-liberation']);
    expect(machine.facts).toHaveBeenCalledTimes(2);
    expect(machine.log).toHaveBeenCalledWith(expect.stringContaining('postgresql chromium chromium-headless-shell fonts-liberation'));
  });

  it('stops with the commands to run again when apt-get fails', () => {
    const machine = fakeMachine({ missing: ['postgresql'], installWorks: false });
    const result = ensurePrerequisites(['postgresql'], machine);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('Installing postgresql failed') });
    expect(!result.ok && result.message).toContain(
      'apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql',
    );
  });

  it('stops when the install did not put the binary where the tests look', () => {
    const machine = fakeMachine({ missing: ['chromium'], installFixes: false });
    const result = ensurePrerequisites(['chromium'], machine);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('still cannot find it') });
  });

  it('stops at once, installing nothing, when it may not install', () => {
    const machine = fakeMachine({ missing: ['chromium', 'postgresql'], facts: { isRoot: false } });
    const result = ensurePrerequisites(['chromium', 'postgresql'], machine);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('sudo apt-get install') });
    expect(machine.aptInstall).not.toHaveBeenCalled();
  });
});
