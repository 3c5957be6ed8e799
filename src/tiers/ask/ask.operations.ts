/** Ask's doors (lib/operation.ts): `POST /ask` / MCP `ask`, and `GET /sensors` / MCP `list_sensors`. */
import { operationTable } from '../../lib/operation.js';
import { AskInput, AskOutput, SensorsInput, SensorsOutput } from './ask.schemas.js';
import type { AskService } from './ask.service.js';

type S = { ask: AskService };

export const askOperations = operationTable<S>('ask', (op) => [
  op({
    name: 'ask',
    http: { method: 'POST', path: '/ask' },
    input: AskInput,
    output: AskOutput,
    example: { question: 'Was the garage door open last night?' },
    summary: 'Answer a question about the home, its people or its past in everyday words',
    description:
      'Call this for ANY question about the home, its people or its past, in the words the person used: readings ' +
      '("was the garage door open last night?", "how warm was the bedroom yesterday evening?", "when did the kettle ' +
      'last run?", "was it colder than usual?"), facts ("when is Anna\'s birthday?"), places ("where are my keys?") ' +
      'and reminders. Returns `result`, one or two sentences to speak as they are; `answer` with its `kind` and ' +
      'values (times in epoch seconds); `sure` (false: say it is not certain); and the `evidence` it rests on. ' +
      'Pass `speaker` (who asks) so "I", "me" and "my" resolve.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.ask.ask(input),
  }),
  op({
    name: 'list_sensors',
    http: { method: 'GET', path: '/sensors' },
    input: SensorsInput,
    output: SensorsOutput,
    example: {},
    summary: 'What the home has readings of: entity, aliases, metric, kind, unit, first/last reading, last value',
    description:
      'List what can be asked about: every sensor series with its entity name and aliases, metric, kind ' +
      '(numeric, two_state, categorical, composite), unit, first and last reading time (epoch seconds) and last ' +
      'value. Use it to discover names for query_stream or get_trends; for a question in words call `ask`.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.ask.sensors(input),
  }),
]);
