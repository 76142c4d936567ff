/** `--name value` or `--name=value` from the command line. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0) return process.argv[at + 1];
  const inline = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

export const flag = (name: string): boolean => process.argv.includes(`--${name}`);
