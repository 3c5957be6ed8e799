/**
 * The plain `result` text of a recall, read by models and spoken by voice assistants: confident facts
 * as they are, possible ones under a label that says they are not knowledge, so an assistant that only
 * reads the text cannot state a guess as a fact.
 */
interface Line {
  entity_name: string;
  fact: string;
}

export const NOT_SURE = 'Not sure — possibly related:';
export const NOTHING = 'Nothing remembered answers that.';

export function recallText(results: Line[], possible: Line[]): string {
  const line = (r: Line) => `- ${r.entity_name}: ${r.fact}`;
  const parts: string[] = results.length ? results.map(line) : [NOTHING];
  if (possible.length) parts.push(NOT_SURE, ...possible.map(line));
  return parts.join('\n');
}
