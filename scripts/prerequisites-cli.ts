/**
 * `tsx scripts/prerequisites-cli.ts chromium postgresql`: what `npm test` runs beside its first checks. Installs what is
 * missing when it may, or exits 1 with what to run (scripts/prerequisites.ts).
 */
import { ensurePrerequisites, type Prerequisite } from './prerequisites';

const KNOWN: readonly Prerequisite[] = ['chromium', 'postgresql'];
const needed = process.argv.slice(2).filter((name): name is Prerequisite => (KNOWN as readonly string[]).includes(name));
const result = ensurePrerequisites(needed);
if (!result.ok) {
  console.error(`npm test cannot run its tests here. ${result.message}`);
  process.exit(1);
}
