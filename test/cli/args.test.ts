/**
 * The command line is checked before anything runs: an unknown option (a typo such as
 * `prune --dryrun`) or an extra argument is one line and exit 2, and nothing is opened or deleted.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { COMMANDS } from '../../src/cli/commands.js';
import { parseCommandLine } from '../../src/cli/args.js';
import { manualClock } from '../../src/lib/clock.js';
import { buildTestHub, tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli, made } from '../helpers/cli.js';

const parse = (...argv: string[]) => parseCommandLine(argv, COMMANDS);

/** Each command with the arguments it needs, so that only the flag under test is wrong. */
const NEEDS: Record<string, string[]> = {
  patterns: ['run'],
  'mcp-config': ['http'],
  backup: ['b.db'],
  restore: ['b.db'],
  import: ['memory-mcp', 'm.db'],
  'export-markdown': ['v'],
  'import-markdown': ['v'],
};

describe('hearth command lines', () => {
  it('every command refuses an unknown option and an extra argument, in one line', () => {
    for (const name of Object.keys(COMMANDS)) {
      const args = NEEDS[name] ?? [];
      const bogus = parse(name, ...args, '--bogus');
      expect(bogus, name).toMatchObject({ kind: 'error' });
      expect((bogus as { message: string }).message).toMatch(
        new RegExp(`^hearth ${name}: unknown option --bogus; ${name} takes .*--config FILE`),
      );
      const extra = parse(name, ...args, 'extra');
      expect(extra, name).toEqual({
        kind: 'error',
        message: `hearth ${name}: unexpected argument "extra"; usage: hearth ${COMMANDS[name].usage}`,
      });
      expect(parse(name, ...args, '-c', 'x.toml'), name).toMatchObject({
        kind: 'run',
        name,
        args,
        configPath: 'x.toml',
      });
    }
    expect(parse('prune', '--dryrun')).toEqual({
      kind: 'error',
      message: 'hearth prune: unknown option --dryrun (did you mean --dry-run?)',
    });
    expect(parse('import-markdown', 'v', '--delete_missing')).toMatchObject({
      message: 'hearth import-markdown: unknown option --delete_missing (did you mean --delete-missing?)',
    });
    expect(parse('doctor', '-j')).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('unknown option -j; doctor takes --json'),
    });
    expect(parse('prune', '--dry-run=no')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(
        /^hearth prune: option '--dry-run' does not take an argument; usage: hearth prune/,
      ),
    });
    expect(parse('doctor', '--config')).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('argument missing'),
    });
    // A flag another command takes is still unknown here: reembed has no --json.
    expect(parse('reembed', '--json')).toMatchObject({ kind: 'error' });
  });

  it('every option the README and docs show still parses', () => {
    const documented = [
      ['serve', '--config', 'c.toml'],
      ['mcp'],
      ['mcp-config', 'claude-desktop'],
      ['doctor', '--json'],
      ['backup', 'f'],
      ['restore', 'f'],
      ['patterns', 'run', '--dry-run', '--json'],
      ['patterns', 'list'],
      ['patterns'],
      ['prune', '--dry-run', '--json'],
      ['reembed', '--dry-run'],
      ['import', 'memory-mcp', 'm.db', '--dry-run', '--json'],
      ['export-markdown', 'dir', '--json'],
      ['import-markdown', 'dir', '--delete-missing', '--json'],
      ['--config', 'c.toml', 'doctor'],
      ['backup', '--', '-odd name.db'],
    ];
    for (const argv of documented) expect(parse(...argv), argv.join(' ')).toMatchObject({ kind: 'run' });
    expect(parse('prune', '--dry-run')).toMatchObject({ flags: { 'dry-run': true } });
    expect(parse('backup', '--', '-odd name.db')).toMatchObject({ args: ['-odd name.db'] });
  });

  it('a typo in `prune --dry-run` deletes nothing: exit 2, one line, the readings still there', async () => {
    const dir = tempDir();
    const hub = await buildTestHub({ dir, clock: manualClock(Math.floor(Date.now() / 1000) - 3 * 86_400) });
    for (let i = 0; i < 3; i++)
      await hub.services.timeseries.record({
        entity_name: 'porch',
        metric: 'humidity',
        value: 50 + i,
        source: 'api',
        ts: hub.clock.now() + i * 60,
      });
    await hub.stop();
    const env = cliEnv(made(join(dir, 'data')), { RETENTION_DAYS: '1' });
    const readings = () => {
      const db = new Database(join(dir, 'data', 'hearth.db'), { readonly: true });
      const n = (db.prepare('SELECT count(*) AS n FROM readings').get() as { n: number }).n;
      db.close();
      return n;
    };
    const typo = await runCli(['prune', '--dryrun'], env);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toBe('hearth prune: unknown option --dryrun (did you mean --dry-run?)\n');
    expect(readings()).toBe(3);
    const preview = await runCli(['prune', '--dry-run'], env);
    expect(preview.stdout).toMatch(/^Would delete [1-9]\d* raw readings/);
    expect(readings()).toBe(3);
    // Nothing is opened for a refused line: a fresh data dir is not even created.
    const fresh = join(tempDir(), 'data');
    for (const argv of [
      ['doctor', '--bogus'],
      ['reembed', 'extra'],
      ['serve', '--prot', '1'],
    ]) {
      const r = await runCli(argv, cliEnv(fresh));
      expect(r.code, argv.join(' ')).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
    }
    expect(existsSync(fresh)).toBe(false);
  }, 60_000);

  it('--version and -v print the version; help, --help and -h print the usage on stdout; a wrong command gets it on stderr', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    const dir = join(tempDir(), 'data');
    for (const flag of ['--version', '-v'])
      expect(await runCli([flag], cliEnv(dir))).toMatchObject({ code: 0, stdout: `hearth ${version}\n`, stderr: '' });
    for (const argv of [['help'], ['--help'], ['-h'], ['prune', '--help']]) {
      const r = await runCli(argv, cliEnv(dir));
      expect(r, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/^usage: hearth <command>/);
      for (const spec of Object.values(COMMANDS)) expect(r.stdout).toContain(`  ${spec.usage} `);
      expect(r.stdout).toMatch(/-v, --version/);
    }
    const none = await runCli([], cliEnv(dir));
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toMatch(/^usage: hearth <command>/);
    const unknown = await runCli(['doctr'], cliEnv(dir));
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^hearth: unknown command "doctr" \(did you mean "doctor"\?\)\nusage: hearth/);
    expect(existsSync(dir)).toBe(false); // `prune --help` pruned nothing, opened nothing
  }, 60_000);
});
