/**
 * One word for a POSIX shell command line: as is when it holds only safe characters, else in single
 * quotes. Tests that put this checkout's paths into a command (`bash -c`, a printed `claude mcp add`)
 * quote them, so the suite passes from a clone whose path holds a space.
 */
export const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
