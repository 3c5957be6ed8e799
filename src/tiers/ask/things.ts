/**
 * Things a home has in its rooms, and what it may meter besides power (water, gas), as stems. A question's word among them names a thing of its own:
 * left over after a series' name it is another thing ("the bedroom window" is not the bedroom's
 * temperature, subject.ts), and a possible fact about another thing is not offered for it ("when was
 * the car last serviced?" is not the boiler's service, memory-answers.ts).
 */
import { tokenize } from '../../ai/text.js';

export const THINGS = new Set(
  tokenize(
    `door window gate garage light lamp bulb blind curtain shutter heater heating radiator fan oven hob fridge freezer
     dishwasher dryer washer tv television kettle boiler lock car bike printer computer alarm camera speaker
     water gas oil rain smoke co2`,
  ),
);

/** The things a text names (stems). */
export const thingsIn = (text: string): Set<string> => new Set(tokenize(text).filter((t) => THINGS.has(t)));

/** A text about a thing, and another about another thing and not the first: two different things. */
export function otherThing(question: string, fact: string): boolean {
  const [asked, told] = [thingsIn(question), thingsIn(fact)];
  return asked.size > 0 && told.size > 0 && ![...asked].some((t) => told.has(t));
}
