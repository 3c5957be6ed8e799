import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildTestHub, post, tempDir, type TestHub } from '../helpers/hub.js';

// The abilities run in a real Python against a real hub; only OpenHome's own classes are stand-ins.
const run = promisify(execFile);
const TOKEN = 'openhome-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let hub: TestHub;
let base: string;
let dir: string;

const STUBS: Record<string, string> = {
  'src/agent/capability.py': 'class MatchingCapability:\n    pass\n',
  'src/main.py': 'class AgentWorker:\n    pass\n',
  'src/agent/capability_worker.py': [
    'class CapabilityWorker:',
    '    def __init__(self, worker):',
    '        self.worker = worker',
    '    def get_full_message_history(self):',
    '        return self.worker.history',
    '    async def speak(self, text):',
    '        self.worker.spoken.append(text)',
    '    async def user_response(self):',
    '        return self.worker.replies.pop(0)',
    '    def resume_normal_flow(self):',
    '        self.worker.resumed = True',
    '',
  ].join('\n'),
  // Drives hearth-memory's run() once per utterance, as OpenHome would after a hotword.
  'drive_memory.py': [
    'import asyncio, importlib.util, json, sys',
    'spec = importlib.util.spec_from_file_location("ability", sys.argv[1]); mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)',
    'class Tasks:',
    '    def create(self, coro): self.coro = coro',
    'class Worker:',
    '    def __init__(self, said): self.history = [{"role": "user", "content": said}]; self.spoken = []; self.replies = []; self.session_tasks = Tasks(); self.resumed = False',
    'out = []',
    'for said in json.loads(sys.argv[2]):',
    '    w = Worker(said); mod.HearthMemoryCapability().call(w); asyncio.run(w.session_tasks.coro)',
    '    out.append({"spoken": w.spoken, "resumed": w.resumed})',
    'print(json.dumps(out))',
    '',
  ].join('\n'),
  'drive_background.py': [
    'import importlib.util, json, sys',
    'spec = importlib.util.spec_from_file_location("daemon", sys.argv[1]); mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)',
    'to_say, seen = mod.tick(json.loads(sys.argv[2]), 1)',
    'print(json.dumps({"to_say": to_say, "seen": seen}))',
    '',
  ].join('\n'),
};

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  hub.clock.set(Date.now() / 1000);
  base = (await hub.start()).http!;
  dir = tempDir('hearth-openhome-');
  for (const [file, text] of Object.entries(STUBS)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
});
afterAll(async () => {
  await hub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const python = (script: string, ability: string, arg: unknown) =>
  run('python3', [join(dir, script), resolve('integrations/openhome', ability), JSON.stringify(arg)], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      PYTHONPATH: dir,
      HEARTH_URL: base,
      HEARTH_TOKEN: TOKEN,
      HEARTH_SPEAKER: 'Brian',
    },
  }).then((r) => JSON.parse(r.stdout));

describe('integrations/openhome', () => {
  it('hearth-memory: remember → recall, locate → find, spoken back; normal flow resumed', async () => {
    const out = (await python('drive_memory.py', 'hearth-memory/main.py', [
      'remember that Brian likes jazz on Sunday mornings',
      'do you remember what music Brian likes on Sunday mornings',
      'I put my car keys in the kitchen drawer',
      'where are my car keys?',
      'do you remember the wifi password',
    ])) as { spoken: string[]; resumed: boolean }[];
    expect(out.every((o) => o.resumed && o.spoken.length === 1)).toBe(true);
    const [remembered, recalled, located, found, unknown] = out.map((o) => o.spoken[0]);
    expect(remembered).not.toMatch(/could not/);
    expect(recalled).toContain('jazz on Sunday mornings');
    expect(located).not.toMatch(/could not/);
    expect(found).toMatch(/kitchen drawer/);
    expect(unknown).toBe("I don't remember anything about that.");
    const facts = await post(hub, '/recall', { query: 'jazz', entity_name: 'Brian' }, auth);
    expect(facts.body.results[0].fact).toBe('Brian likes jazz on Sunday mornings');
  });

  it('hearth-background: records a reading and speaks what a new user message triggers', async () => {
    await post(
      hub,
      '/intend',
      { entity_name: 'Anna', trigger_text: 'when Anna gets home', action_text: 'remind Anna to call the plumber' },
      auth,
    );
    const history = [
      { role: 'user', content: 'good morning' },
      { role: 'user', content: 'Anna just got home' },
      { role: 'assistant', content: 'Welcome back' },
    ];
    const out = await python('drive_background.py', 'hearth-background/background.py', history);
    expect(out).toEqual({ to_say: ['remind Anna to call the plumber'], seen: 3 });
    const points = await post(
      hub,
      '/query_stream',
      { entity_name: 'openhome_speaker', metric: 'conversation.user_turns' },
      auth,
    );
    expect(points.body.points.map((p: { value: number }) => p.value)).toEqual([1]);
  });

  it('mcp.example.json has the shape `hearth mcp-config openhome` prints', async () => {
    const example = JSON.parse(readFileSync('integrations/openhome/mcp.example.json', 'utf8'));
    const { stdout } = await run(process.execPath, ['dist/src/cli.js', 'mcp-config', 'openhome'], {
      env: { PATH: process.env.PATH ?? '', HEARTH_DATA_DIR: '/var/lib/hearth' },
    });
    const printed = JSON.parse(stdout);
    expect(Object.keys(printed.mcpServers)).toEqual(Object.keys(example.mcpServers));
    expect(printed.mcpServers.memory.args.slice(1)).toEqual(example.mcpServers.memory.args.slice(1));
    expect(printed.mcpServers.memory.env).toEqual(example.mcpServers.memory.env);
  });
});
